// A commerce processor that claims due deliveries and then never finishes: the test kills it
// (SIGKILL) mid-processing. Usage: node --import tsx commerce-claim-and-hang.ts <database url> <now ISO>
import { connectDatabase } from '@shared/infra/db.ts'
import { claimDueDeliveries } from '@shared/services/commerce/process.ts'

const [url, nowIso] = process.argv.slice(2)
const sql = connectDatabase(url!, 1)
const { deliveries } = await claimDueDeliveries({ sql }, new Date(nowIso!), 10)
process.stdout.write(`${JSON.stringify(deliveries.map((d) => d.id))}\n`)
// "Processing" until killed.
setInterval(() => {}, 1 << 30)
