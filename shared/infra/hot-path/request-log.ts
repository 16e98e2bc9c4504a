import type { Context } from 'hono'
import { FlushTimer } from '../background.ts'
import type { Caller } from '../caller.ts'
import type { Sql } from '../db.ts'
import { ServiceError } from '../errors.ts'
import type { AppEnv } from '../http/app-env.ts'
import { toPublicPath } from '../http/public-routes.ts'
import type { Logger } from '../logger.ts'
import { hotPathOf } from './hot-path.ts'
import { FLUSH_MS } from './usage-buffer.ts'

/**
 * The tenant's request log (public.api_request_log), written without a write per request: the
 * frame hands each answered request to this instance's buffer (logTenantRequest), and one
 * statement inserts everything buffered at most FLUSH_MS later, at shutdown, and (on the edge
 * runtime) under EdgeRuntime.waitUntil. A crash loses the requests answered since the last flush
 * that succeeded: at most FLUSH_MS of this instance's traffic, and never more than MAX_PENDING
 * rows (docs/performance.md). The log is an account of what happened, not a ledger: while the
 * database refuses the writes, the oldest rows past MAX_PENDING are dropped (and counted).
 */

/** Rows held in memory at most; past it the oldest are dropped. */
export const MAX_PENDING = 10_000

export type RateLimitOutcome = 'allowed' | 'limited'
export type QuotaOutcome = 'counted' | 'exceeded'

export interface RequestLogEntry {
  /** When the request arrived (ms). */
  at: number
  requestId: string
  method: string
  /** The function and the path it routed on; the public path is made at flush time. */
  fn: string
  path: string
  status: number
  tenantId: string
  keyId: string | null
  userId: string
  latencyMs: number
  rateLimit: RateLimitOutcome | null
  rateRemaining: number | null
  quota: QuotaOutcome | null
}

const MAX_PATH = 512

export class RequestLogBuffer {
  private pending: RequestLogEntry[] = []
  private readonly timer = new FlushTimer(FLUSH_MS, () => this.flush())
  private flushing: Promise<void> | null = null
  /** Statements sent, rows written and rows dropped past MAX_PENDING (benchmark and tests). */
  readonly stats = { statements: 0, rows: 0, dropped: 0 }

  constructor(
    private readonly sql: Sql,
    private readonly logger: Logger,
  ) {}

  /** Rows answered and not yet in the database (for tests and the crash bound). */
  get unflushed(): number {
    return this.pending.length
  }

  add(entry: RequestLogEntry): void {
    this.pending.push(entry)
    if (this.pending.length > MAX_PENDING) this.drop(this.pending.length - MAX_PENDING)
    this.timer.schedule()
  }

  private drop(n: number): void {
    this.pending.splice(0, n)
    this.stats.dropped += n
  }

  /** Inserts every buffered row in one statement; a failed insert keeps them for the next. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush())
    if (this.pending.length === 0) return Promise.resolve()
    const batch = this.pending
    this.pending = []
    this.flushing = (async () => {
      try {
        this.stats.statements++
        await this.sql`
          insert into public.api_request_log (tenant_id, at, request_id, method, path, status, key_id,
            user_id, latency_ms, rate_limit, rate_remaining, quota)
          select * from unnest(
            ${batch.map((e) => e.tenantId)}::uuid[],
            ${batch.map((e) => new Date(e.at).toISOString())}::timestamptz[],
            ${batch.map((e) => e.requestId)}::text[],
            ${batch.map((e) => e.method)}::text[],
            ${batch.map((e) => toPublicPath(e.fn, e.path).slice(0, MAX_PATH))}::text[],
            ${batch.map((e) => e.status)}::smallint[],
            ${batch.map((e) => e.keyId)}::uuid[],
            ${batch.map((e) => e.userId)}::uuid[],
            ${batch.map((e) => e.latencyMs)}::integer[],
            ${batch.map((e) => e.rateLimit)}::text[],
            ${batch.map((e) => e.rateRemaining)}::integer[],
            ${batch.map((e) => e.quota)}::text[])`
        this.stats.rows += batch.length
      } catch (err) {
        // Kept, older first, for the next flush (scheduled now), within MAX_PENDING.
        this.pending = batch.concat(this.pending)
        if (this.pending.length > MAX_PENDING) this.drop(this.pending.length - MAX_PENDING)
        this.logger.warn('request log flush failed', { rows: batch.length, error: String(err) })
        this.timer.schedule()
      }
    })().finally(() => {
      this.flushing = null
    })
    return this.flushing
  }

  /** Writes what is buffered (shutdown). */
  async close(): Promise<void> {
    this.timer.cancel()
    await this.flush()
  }
}

/** Key requests refused before they had a caller (over the rate limit, without the scope). */
const refusedKeys = new WeakMap<Context<AppEnv>, { tenantId: string; keyId: string; userId: string }>()
/** Callers whose request was metered and admitted (a quota counted it). */
const counted = new WeakSet<object>()

/** Authentication verified a key and then refused the request: it is still the tenant's request. */
export function noteRefusedKey(
  c: Context<AppEnv>,
  key: { tenantId: string; keyId: string; userId: string },
): void {
  refusedKeys.set(c, key)
}

/** Metering admitted this caller's request (the request log's quota outcome: counted). */
export function noteQuotaCounted(caller: Caller): void {
  counted.add(caller)
}

/**
 * The frame's one call when the response is known: a request a tenant's key or signed-in member
 * made goes to the buffer. Service-role calls (jobs), anonymous ones and unknown keys are not a
 * tenant's requests. No await, no database.
 */
export function logTenantRequest(c: Context<AppEnv>, fn: string, started: number): void {
  const caller = c.get('caller')
  let tenantId: string
  let keyId: string | null = null
  let userId: string
  if (caller && 'tenantId' in caller) {
    if (caller.kind === 'service') return
    tenantId = caller.tenantId
    userId = caller.userId
    if (caller.kind !== 'user') keyId = caller.keyId
  } else {
    const refused = refusedKeys.get(c)
    if (!refused) return
    ;({ tenantId, keyId, userId } = refused)
  }
  const code = c.error instanceof ServiceError ? c.error.code : undefined
  const rl = c.get('rateLimit')
  const deps = c.get('deps')
  const latencyMs = Math.round(performance.now() - started)
  hotPathOf(deps).requestLog.add({
    at: deps.clock.now().getTime() - latencyMs,
    requestId: c.get('requestId'),
    method: c.req.method,
    fn,
    path: c.req.path,
    status: c.res.status,
    tenantId,
    keyId,
    userId,
    latencyMs,
    rateLimit: rl ? (code === 'RATE_LIMITED' ? 'limited' : 'allowed') : null,
    rateRemaining: rl ? rl.remaining : null,
    quota: code === 'QUOTA_EXCEEDED' ? 'exceeded' : caller && counted.has(caller) ? 'counted' : null,
  })
}
