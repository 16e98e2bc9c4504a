/**
 * `npm run plan -- --tenant <id or name> <free|pro|business|enterprise>`
 * Changes a tenant's plan on the running local platform (to lift the Free plan's quotas while
 * trying things out). Plans are billing data, so this calls the service-role route
 * (POST /functions/v1/tenants/admin/tenants/{id}/plan) with the local service-role key, exactly
 * as billing would on a deployment; it prints the plan change.
 */
import { parseArgs } from 'node:util'
import { localDatabaseUrl, readLocalEnv } from '../local-platform/local-env.ts'
import { connectDatabase } from '../shared/infra/db.ts'

const plans = ['free', 'pro', 'business', 'enterprise']
const usage = `usage: npm run plan -- --tenant <tenant id or name> <${plans.join('|')}>`
const { values, positionals } = parseArgs({
  options: { tenant: { type: 'string' } },
  allowPositionals: true,
})
const plan = positionals[0]
if (!values.tenant || !plan || positionals.length !== 1 || !plans.includes(plan)) {
  console.error(usage)
  process.exit(2)
}

const env = readLocalEnv()
const tenantId = await resolveTenant(values.tenant)
const res = await fetch(
  `http://127.0.0.1:${env.apiPort}/functions/v1/tenants/admin/tenants/${tenantId}/plan`,
  {
    method: 'POST',
    headers: { apikey: env.serviceRoleKey, 'content-type': 'application/json' },
    body: JSON.stringify({ plan }),
  },
).catch((err: Error) => {
  console.error(
    `The local platform does not answer on port ${env.apiPort} (${err.message}): run npm start first`,
  )
  process.exit(1)
})
const text = await res.text()
if (!res.ok) {
  console.error(`${res.status}: ${text}`)
  process.exit(1)
}
process.stdout.write(`${text}\n`)

/** A tenant id as given, or the one tenant of that name (a name two tenants share is refused). */
async function resolveTenant(idOrName: string): Promise<string> {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName)) return idOrName
  const sql = connectDatabase(process.env.DATABASE_URL ?? localDatabaseUrl(), 1)
  try {
    const rows = await sql<{ id: string }[]>`select id from public.tenants where name = ${idOrName} limit 2`
    if (rows.length === 1) return rows[0]!.id
    console.error(
      rows.length === 0
        ? `No tenant named "${idOrName}"`
        : `Several tenants are named "${idOrName}": give the tenant id (GET /api/tenants/current answers it)`,
    )
    process.exit(1)
  } finally {
    await sql.end()
  }
}
