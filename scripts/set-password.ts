/**
 * `npm run set-password -- --email <e> [--password <p>]`
 * Gives a user of the local platform a password (or a new one), so it can sign in to the dashboard
 * at /dashboard/. For the users that `npm run token` and the demo seed make without one: the local
 * /auth/v1 sign-up never changes an existing user. Without --password, the password is read from
 * the first line of standard input (so it stays out of the shell history and the process list).
 *
 * Local only: it writes auth.users of the local database directly and refuses any database that is
 * not on this machine. On Supabase, passwords belong to Supabase Auth (reset them there).
 */
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import bcrypt from 'bcryptjs'
import { BCRYPT_COST, MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH } from '../local-platform/auth.ts'
import { localDatabaseUrl } from '../local-platform/local-env.ts'
import { connectDatabase } from '../shared/infra/db.ts'

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } })
const fail = (message: string, code = 1): never => {
  console.error(message)
  process.exit(code)
}
if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email))
  fail('usage: npm run set-password -- --email <e-mail> [--password <password>]  (else read from stdin)', 2)

const url = process.env.DATABASE_URL ?? localDatabaseUrl()
const host = new URL(url).hostname
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host))
  fail(`set-password is for the local platform only; ${host} is not this machine`, 2)

const password =
  values.password ??
  (await new Promise<string>((resolve) => {
    const lines = createInterface({ input: process.stdin })
    lines.once('line', (line) => {
      lines.close()
      resolve(line)
    })
    lines.once('close', () => resolve(''))
  }))
if (password.length < MIN_PASSWORD_LENGTH)
  fail(`The password needs at least ${MIN_PASSWORD_LENGTH} characters`, 2)
if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES)
  fail(`The password may be at most ${MAX_PASSWORD_BYTES} bytes`, 2)

const sql = connectDatabase(url, 1)
try {
  const hash = await bcrypt.hash(password, BCRYPT_COST)
  const now = new Date()
  const updated = await sql`
    update auth.users set encrypted_password = ${hash}, email_confirmed_at = coalesce(email_confirmed_at, ${now}),
                          updated_at = ${now}
    where email = ${values.email!.toLowerCase()}
    returning id`
  if (updated.length === 0)
    fail(
      `No user ${values.email}: sign up in the dashboard, or make one with npm run token -- --email ${values.email}`,
    )
  console.log(`Password set for ${values.email!.toLowerCase()}; sign in at /dashboard/.`)
} finally {
  await sql.end()
}
