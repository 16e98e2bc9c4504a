/**
 * `npm run vault:rotate`: master-key rotation for the vault (docs/credentials.md).
 *
 *   1. Generate a key:            npm run vault:rotate -- --generate v2
 *   2. Configure every function with the new key first: VAULT_MASTER_KEYS="v2:<new>,v1:<old>"
 *   3. Re-wrap and verify:        DATABASE_URL=... VAULT_MASTER_KEYS="v2:<new>,v1:<old>" npm run vault:rotate
 *   4. When it reports no failures, drop v1 from VAULT_MASTER_KEYS.
 *
 * Prints counts and ids only, never key material of existing keys or any secret.
 * Exit status 1 when a data key or a credential is not readable under the newest key alone.
 */

import { localDatabaseUrl } from '../local-platform/local-env.ts'
import { randomBytes, toBase64 } from '../shared/infra/crypto.ts'
import { connectDatabase } from '../shared/infra/db.ts'
import { rotateMasterKey } from '../shared/services/credentials/master-key-rotation.ts'

const args = process.argv.slice(2)
const generate = args.indexOf('--generate')
if (generate >= 0) {
  const version = args[generate + 1] ?? 'v2'
  if (!/^[\w-]{1,32}$/.test(version)) throw new Error('a key version is letters, digits, _ or -')
  console.log(`${version}:${toBase64(randomBytes(32))}`)
  process.exit(0)
}

const masterKeys = process.env.VAULT_MASTER_KEYS
if (!masterKeys) {
  console.error(
    'VAULT_MASTER_KEYS is required: the new master key first, then the current ones ("v2:...,v1:...")',
  )
  process.exit(2)
}
const sql = connectDatabase(process.env.DATABASE_URL ?? localDatabaseUrl(), 2)
try {
  const report = await rotateMasterKey(sql, masterKeys)
  console.log(JSON.stringify(report, null, 2))
  process.exitCode = report.dataKeysNotRewrapped === 0 && report.credentialsFailed.length === 0 ? 0 : 1
} finally {
  await sql.end({ timeout: 5 })
}
