import type { Sql } from '../db.ts'
import { toPublicPath } from '../http/public-routes.ts'
import type { Logger } from '../logger.ts'
import { BatchFlusher, FLUSH_MS } from './batch-flusher.ts'

/**
 * The tenant's request log (public.api_request_log), written without a write per request: the
 * frame hands each answered request to this instance's buffer (logTenantRequest in
 * log-request.ts), and one
 * statement inserts everything buffered at most FLUSH_MS later, at shutdown, and (on the edge
 * runtime) under EdgeRuntime.waitUntil. A crash loses the requests answered since the last flush
 * that succeeded: at most FLUSH_MS of this instance's traffic, and never more than MAX_PENDING
 * rows (docs/performance.md). The log is an account of what happened, not a ledger: while the
 * database refuses the writes, the oldest rows past MAX_PENDING are dropped (and counted).
 */

/** Rows held in memory at most; past it the oldest are dropped. */
const MAX_PENDING = 10_000

/**
 * Refusals over a key's rate limit are counted, not written one by one: per key (or member) and
 * minute, this instance writes the first refusal at the next flush (so the log shows within about
 * a second that the key is being refused) and the rest of the minute's count once the minute is
 * over. So a key sending without end costs at most two rows a minute per instance, whatever it
 * sends (issue 44: 400 requests at 1 a minute wrote 400 rows).
 */
export const REFUSAL_WINDOW_MS = 60_000

type RateLimitOutcome = 'allowed' | 'limited'
type QuotaOutcome = 'counted' | 'exceeded'

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
  /** How many requests the row stands for (refusals over the rate limit, counted per minute). */
  requests: number
}

/** A minute's refusals of one key (or member) on this instance, not yet all written. */
interface RefusalWindow {
  /** The first refusal of the minute, the row's time, path and status. */
  first: RequestLogEntry
  /** The minute the window counts (ms, start). */
  minute: number
  /** Refusals counted since the last row written for this window, and the latest one's time. */
  unwritten: number
  lastAt: number
  /** Whether a row was written for this window (the first refusal's). */
  opened: boolean
}

const MAX_PATH = 512

export class RequestLogBuffer {
  private pending: RequestLogEntry[] = []
  private readonly flusher: BatchFlusher<RequestLogEntry[]>
  private readonly refusals = new Map<string, RefusalWindow>()
  /** Statements sent, rows written and rows dropped past MAX_PENDING (benchmark and tests). */
  readonly stats = { statements: 0, rows: 0, dropped: 0 }

  constructor(
    sql: Sql,
    logger: Logger,
    /** The clock the entries' times come from (the frame's injected clock). */
    private readonly now: () => number = Date.now,
  ) {
    this.flusher = new BatchFlusher(
      FLUSH_MS,
      {
        take: (now) => this.take(now ?? this.now()),
        write: async (batch) => {
          this.stats.statements++
          await sql`
            insert into public.api_request_log (tenant_id, at, request_id, method, path, status, key_id,
              user_id, latency_ms, rate_limit, rate_remaining, quota, requests)
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
              ${batch.map((e) => e.quota)}::text[],
              ${batch.map((e) => e.requests)}::integer[])`
          this.stats.rows += batch.length
        },
        // Kept, older first, for the next flush, within MAX_PENDING.
        restore: (batch) => {
          this.pending = batch.concat(this.pending)
          if (this.pending.length > MAX_PENDING) this.drop(this.pending.length - MAX_PENDING)
        },
        failure: 'request log flush failed',
        describe: (batch) => ({ rows: batch.length }),
      },
      logger,
    )
  }

  /** Requests answered and not yet in the database (for tests and the crash bound). */
  get unflushed(): number {
    let n = 0
    for (const e of this.pending) n += e.requests
    for (const w of this.refusals.values()) n += w.unwritten
    return n
  }

  add(entry: RequestLogEntry): void {
    if (entry.rateLimit === 'limited') {
      this.countRefusal(entry)
      return
    }
    this.pending.push(entry)
    if (this.pending.length > MAX_PENDING) this.drop(this.pending.length - MAX_PENDING)
    this.flusher.schedule()
  }

  private countRefusal(entry: RequestLogEntry): void {
    const minute = entry.at - (entry.at % REFUSAL_WINDOW_MS)
    const id = `${entry.tenantId}|${entry.keyId ?? ''}|${entry.userId}|${minute}`
    const window = this.refusals.get(id)
    if (window) {
      window.unwritten++
      window.lastAt = entry.at
      return
    }
    // A new minute: earlier windows of the same caller are written at the next flush anyway.
    this.refusals.set(id, { first: entry, minute, unwritten: 1, lastAt: entry.at, opened: false })
    if (this.refusals.size > MAX_PENDING) {
      const oldest = this.refusals.keys().next().value!
      this.stats.dropped += this.refusals.get(oldest)!.unwritten
      this.refusals.delete(oldest)
    }
    this.flusher.schedule()
  }

  /**
   * The refusal rows due now: a window's first refusal at the first flush after it, the rest of
   * its count once its minute is over (then the window is forgotten). `now` is the clock of the
   * entries (the frame's injected clock).
   */
  private dueRefusals(now: number): RequestLogEntry[] {
    const due: RequestLogEntry[] = []
    for (const [id, w] of this.refusals) {
      const over = now >= w.minute + REFUSAL_WINDOW_MS
      if (!w.opened) {
        due.push({ ...w.first, requests: over ? w.unwritten : 1 })
        w.unwritten = over ? 0 : w.unwritten - 1
        w.opened = true
      } else if (over && w.unwritten > 0) {
        due.push({ ...w.first, at: w.lastAt, requests: w.unwritten })
        w.unwritten = 0
      }
      if (over) this.refusals.delete(id)
    }
    return due
  }

  private drop(n: number): void {
    this.pending.splice(0, n)
    this.stats.dropped += n
  }

  /** The rows to write now: those buffered and the refusal rows due (`now`: the entries' clock). */
  private take(now: number): RequestLogEntry[][] {
    this.pending.push(...this.dueRefusals(now))
    // A window with refusals still to write is looked at again a flush later (no statement
    // unless a row is due then).
    for (const w of this.refusals.values())
      if (w.unwritten > 0) {
        this.flusher.schedule()
        break
      }
    if (this.pending.length === 0) return []
    const batch = this.pending
    this.pending = []
    return [batch]
  }

  /**
   * Inserts every buffered row in one statement; a failed insert keeps them for the next. `now`
   * closes the refusal windows of minutes that are over (default: the clock; shutdown closes all).
   */
  flush(now = this.now()): Promise<void> {
    return this.flusher.flush(now)
  }

  /** Writes what is buffered, the counts of open refusal windows included (shutdown). */
  close(): Promise<void> {
    return this.flusher.close(Number.POSITIVE_INFINITY)
  }
}
