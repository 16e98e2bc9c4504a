import postgres from 'postgres'
import { ServiceError } from './errors.ts'

export type Sql = postgres.Sql
/** A transaction handle; also accepted wherever a plain Sql is used for one statement. */
export type Tx = postgres.TransactionSql
export type Queryable = Sql | Tx
/**
 * The tenant a statement acts for: a value, or a SQL fragment that reads it from the
 * transaction's claims (pipelined reads, where it is not known in JS yet).
 */
export type TenantRef = string | postgres.PendingQuery<postgres.Row[]>

/**
 * True for Supabase's transaction poolers: the shared pooler (Supavisor, *.pooler.supabase.com)
 * and the dedicated one (PgBouncer), both on port 6543. A transaction-mode pooler hands each
 * transaction to any server connection, so a statement prepared on one is missing on the next.
 */
export function isTransactionPooler(url: string): boolean {
  // By the text as well as the parsed URL: a password with unescaped URL characters misleads the parser.
  if (url.includes('.pooler.supabase.com') || /:6543(?:[/?]|$)/.test(url)) return true
  try {
    return new URL(url).port === '6543'
  } catch {
    return false
  }
}

export function connectDatabase(url: string, max = 3): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    // Direct and local connections keep prepared statements (a parse saved per query); the
    // transaction pooler cannot.
    prepare: !isTransactionPooler(url),
    connection: { application_name: 'tenant-platform' },
    idle_timeout: 30,
  })
}

/** Claims as Supabase puts them in request.jwt.claims (what auth.uid() and auth.jwt() read). */
export interface RequestClaims {
  sub: string
  role: 'authenticated'
  email?: string
  app_metadata: { tenant_id: string }
  /** Set when the caller is a key rather than a signed-in user. */
  api_key_id?: string
}

/** Role authenticated and the caller's claims for the rest of the transaction (one statement). */
export const claimsSetup = (q: Queryable, claims: RequestClaims) =>
  q`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`

/**
 * Runs `fn` in a transaction as role `authenticated` with the caller's claims, so row-level
 * security decides what is visible, exactly as PostgREST does on Supabase. Both settings are
 * transaction-local and vanish at commit, so a pooled connection never carries them further.
 * The settings statement is pipelined with fn's first query (no extra round trip).
 */
export async function withTenant<T>(sql: Sql, claims: RequestClaims, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const setup = claimsSetup(tx, claims)
    setup.catch(() => {}) // starts it now; its error, if any, is raised by the await below
    const result = await fn(tx)
    await setup
    return result
  })) as T
}

/**
 * One read as the tenant, in a single network round trip: BEGIN, the claims, the query and
 * COMMIT are pipelined on one reserved connection. For hot read paths (GET /v1/content);
 * use withTenant when a step depends on an earlier one.
 */
export async function readAsTenant<T>(
  sql: Sql,
  claims: RequestClaims,
  query: (q: Queryable) => Promise<T>,
): Promise<T> {
  const conn = await sql.reserve()
  try {
    const [, , rows] = await Promise.all([
      conn`begin read only`,
      claimsSetup(conn, claims),
      query(conn),
      conn`commit`,
    ])
    return rows
  } catch (err) {
    // A failed statement aborts the transaction and turns the COMMIT into a rollback; make sure.
    await conn`rollback`.catch(() => {})
    throw err
  } finally {
    conn.release()
  }
}

/** Postgres error codes we translate into API errors. */
export const pgErrors = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  insufficientPrivilege: '42501',
  invalidTextRepresentation: '22P02',
} as const

export function isPgError(err: unknown, code: string): boolean {
  return err instanceof postgres.PostgresError && err.code === code
}

/**
 * For `.catch()` on tenant writes: row-level security and column grants refuse a member's write
 * with a privilege error; this turns it into 403 with `message` and rethrows anything else.
 */
export function privilegeErrorAs(message: string): (err: unknown) => never {
  return (err) => {
    if (isPgError(err, pgErrors.insufficientPrivilege))
      throw new ServiceError('INSUFFICIENT_PERMISSIONS', message)
    throw err
  }
}
