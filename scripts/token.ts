/**
 * `npm run token -- --email <e> [--tenant <name>] [--role owner|admin|member]`
 * Creates the user, tenant and membership where missing and prints only a fresh access token,
 * so scripts can do TOKEN=$(npm run -s token -- --email a@b.c). Without --tenant, a user who
 * already belongs to a tenant gets a token for it (their active one); a new user gets
 * "<name>'s team". Works while `npm start` runs.
 */
import { parseArgs } from 'node:util'
import { ensureUserAndTenant, issueAccessToken } from '../local-platform/dev-identity.ts'
import { localDatabaseUrl, readLocalEnv } from '../local-platform/local-env.ts'
import { connectDatabase } from '../shared/infra/db.ts'

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    tenant: { type: 'string' },
    role: { type: 'string', default: 'owner' },
    'expires-in': { type: 'string', default: '3600' },
  },
})
if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
  console.error('usage: npm run token -- --email <e-mail> [--tenant <name>] [--role owner|admin|member]')
  process.exit(2)
}
const role = values.role as 'owner' | 'admin' | 'member'
if (!['owner', 'admin', 'member'].includes(role)) {
  console.error('--role is owner, admin or member')
  process.exit(2)
}
const env = readLocalEnv()
const sql = connectDatabase(process.env.DATABASE_URL ?? localDatabaseUrl(), 1)
try {
  const ids = await ensureUserAndTenant(sql, values.email, values.tenant, role)
  const token = await issueAccessToken(
    env,
    { ...ids, email: values.email.toLowerCase() },
    { issuer: `http://127.0.0.1:${env.apiPort}/auth/v1`, expiresInSeconds: Number(values['expires-in']) },
  )
  process.stdout.write(`${token}\n`)
} finally {
  await sql.end()
}
