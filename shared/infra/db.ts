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

/**
 * Seconds a new connection may take before the attempt fails (postgres.js waits 30 s by default):
 * while the database is unreachable a request answers 503 in a few seconds instead of hanging.
 */
export const CONNECT_TIMEOUT_SECONDS = 5

/** 50 ms doubling per failed attempt, at most 0.5 s. */
const reconnectDelaySeconds = (retries: number) => Math.min(0.05 * 2 ** retries, 0.5)

export function connectDatabase(url: string, max = 3): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // Between reconnect attempts while the server is down (postgres.js grows this to 20 s): each
    // failed attempt answers one waiting request (503), and a server back up is used within 0.5 s.
    backoff: reconnectDelaySeconds,
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
  /** A published-only key: row-level security shows it published articles only. */
  published_only?: true
  /**
   * The automation run whose tool calls this transaction makes: events it records carry that run
   * as their cause (private.event_cause_from_request), so the run's own automation is not started
   * by them. Set by the platform only (a Supabase session cannot carry it).
   */
  automation_run_id?: string
}

/**
 * Role authenticated, the caller's claims and the tenant the transaction acts for, for the rest of
 * the transaction (one statement). request.tenant_id is the scalar the hot tables' policies compare
 * tenant_id with (private.request_tenant_id(), which also requires the claims' user to be a member
 * of it); empty for a user without a tenant.
 */
export const claimsSetup = (q: Queryable, claims: RequestClaims) =>
  q`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true), set_config('request.tenant_id', ${claims.app_metadata?.tenant_id ?? ''}, true)`

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
 * COMMIT are pipelined on one reserved connection; use withTenant when a step depends on an
 * earlier one. (The hottest read, GET /v1/content, goes one step further: a database function
 * sets role and claims and reads in one statement, private.content_feed.)
 */
export async function readAsTenant<T>(
  sql: Sql,
  claims: RequestClaims,
  query: (q: Queryable) => Promise<T>,
): Promise<T> {
  return onReservedConnection(sql, async (conn) => {
    // BEGIN and the claims are sent before `query` is called: a query is sent when something
    // awaits it, and an async `query` awaits its statement as soon as it is called, which would
    // otherwise put it ahead of BEGIN, outside the transaction and without the claims.
    const begin = conn`begin read only`.execute()
    const setup = claimsSetup(conn, claims).execute()
    const [, , rows] = await Promise.all([begin, setup, query(conn), conn`commit`])
    return rows
  })
}

/**
 * Runs pipelined statements (an explicit BEGIN ... COMMIT) on one reserved connection and hands
 * it back. On a failed statement the transaction is rolled back before release. A connection the
 * server closed (a restart: a FATAL error, or the socket gone) is neither rolled back nor
 * released: postgres.js (3.4) would put it back among its open connections on release, and the
 * next query there writes to a socket that is gone, an uncaught TypeError that ends the process.
 * The pool has already counted it as closed and reconnects it when next needed.
 */
async function onReservedConnection<T>(sql: Sql, fn: (conn: postgres.ReservedSql) => Promise<T>): Promise<T> {
  const conn = await reserveWithin(sql, CONNECT_TIMEOUT_SECONDS * 1000)
  let lost = false
  try {
    return await fn(conn)
  } catch (err) {
    noteDatabaseError(err)
    lost = isConnectionLost(err)
    // A failed statement aborts the transaction and turns the COMMIT into a rollback; make sure.
    if (!lost) await conn`rollback`.catch(() => {})
    throw err
  } finally {
    if (!lost) conn.release()
  }
}

/**
 * sql.reserve(), bounded during an outage: while the server is down a reservation can wait on
 * postgres.js's reconnect loop far longer than any connect time-out. Past `ms`, if this process
 * met the database unavailable in the last 30 s, it fails as CONNECT_TIMEOUT (a 503 to the
 * client) and a connection that arrives later is handed straight back; otherwise it keeps waiting.
 */
async function reserveWithin(sql: Sql, ms: number): Promise<postgres.ReservedSql> {
  const reserving = sql.reserve()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Only during an outage: on a healthy server a busy pool is waited for, however long.
      if (performance.now() - lastUnavailableAt > OUTAGE_MEMORY_MS) return
      reserving.then(
        (late) => late.release(),
        () => {},
      )
      reject(
        Object.assign(new Error('No database connection within the time-out'), { code: 'CONNECT_TIMEOUT' }),
      )
    }, ms)
  })
  try {
    return await Promise.race([reserving, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * postgres.js 3.4.9 (the latest) can throw this from a timer when a statement is written to a
 * connection the server has just closed (a restart): an uncaught TypeError with no query to fail,
 * which would end the process. Upstream: porsager/postgres issues 1154 and 1208, unreleased fixes.
 * Every affected query has already failed with CONNECTION_CLOSED; the process may go on.
 */
export function isPostgresWriteRace(err: { message?: string; stack?: string } | null | undefined): boolean {
  return (
    !!err &&
    /reading 'write'|evaluating 'socket\.write'/.test(err.message ?? '') &&
    /postgres[\\/]src[\\/]connection\.js/.test(err.stack ?? '')
  )
}

/** The error ended the connection itself: a FATAL from the server, or the socket closed or failed. */
function isConnectionLost(err: unknown): boolean {
  if (err instanceof postgres.PostgresError) return err.severity === 'FATAL' || err.severity === 'PANIC'
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && UNAVAILABLE_CONNECTION_CODES.has(code)
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
 * SQLSTATEs of a server that is going away or not there yet: connection exceptions (class 08),
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down, in recovery)
 * and too_many_connections (a pooler or server out of slots).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])
/** Errors of the connection itself: postgres.js's own codes and the socket's. */
const UNAVAILABLE_CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

/**
 * True when an error means the database could not be reached or dropped the connection (a
 * restart, a failover, the pooler losing its server): nothing about the request was wrong, and
 * the same request may pass a moment later. Callers answer 503 with retryAfter
 * (http/error-response.ts) or retry the write themselves (retryWhileUnavailable).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof postgres.PostgresError)
    return err.code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(err.code)
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && UNAVAILABLE_CONNECTION_CODES.has(code)
}

/** When this process last met the database unavailable (performance.now()); see reserveWithin. */
let lastUnavailableAt = Number.NEGATIVE_INFINITY
const OUTAGE_MEMORY_MS = 30_000

/** Records that `err`, if it is one, showed the database unavailable (an outage in progress). */
export function noteDatabaseError(err: unknown): void {
  if (isDatabaseUnavailable(err)) lastUnavailableAt = performance.now()
}

/** Seconds a client is told to wait when the database is unavailable (a restart takes a few). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2

/**
 * Runs a bookkeeping write again while the database is unavailable, for up to `forMs` (real time):
 * the outcome of work already done outside the database (a webhook sent, a job's handler run) is
 * recorded once the database is back, instead of being lost and the work done again when its
 * lease runs out. Any other error, or the last one after `forMs`, is thrown.
 */
export async function retryWhileUnavailable<T>(fn: () => Promise<T>, forMs = 30_000): Promise<T> {
  const deadline = performance.now() + forMs
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await fn()
    } catch (err) {
      // postgres.js's write race (isPostgresWriteRace) fails before the statement is sent: safe
      // to run again, like an unavailable database.
      const retryable = isDatabaseUnavailable(err) || isPostgresWriteRace(err as Error)
      if (!retryable || performance.now() + wait > deadline) throw err
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
  }
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
