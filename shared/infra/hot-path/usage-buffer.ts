import type { Sql } from '../db.ts'
import type { Logger } from '../logger.ts'
import { BatchFlusher } from './batch-flusher.ts'

/**
 * Metering without a write per request (docs/adr/0004-rate-limits-in-postgres.md). Per tenant,
 * product and month, an instance learns the plan's hard cap from its first count
 * (private.reserve_usage), then:
 *  - no hard cap (paid plans): counts in memory and adds them up in one statement per counter at
 *    most USAGE_FLUSH_MS later, at shutdown, and (on the edge runtime) under EdgeRuntime.waitUntil.
 *    A crash loses what was counted since the last flush that succeeded: at most USAGE_FLUSH_MS of
 *    this instance's traffic (plus a statement's round trip). Each flush writes one row (the
 *    month's counter, which holds its days too: migration 20261207050100).
 *  - a hard cap (Free): reserves units before admitting, one statement for all the requests of
 *    this instance waiting at that moment, granted only while they fit under the quota; so the
 *    quota is never exceeded on any number of instances, and nothing is reserved that no request
 *    is waiting for (a crash can over-count at most the requests in flight). A capped plan's
 *    counts are few by definition (100 a month on Free), so its writes are too.
 */

/**
 * The longest an uncapped plan's count waits in memory. Longer than FLUSH_MS (batch-flusher.ts): a counter write per
 * second per instance was most of the writes per 1,000 keyed reads below 100 reads a second
 * (docs/performance.md); no quota depends on these counts (a capped plan reserves before it
 * admits), and a crash under-counts at most this much of an instance's traffic.
 */
const USAGE_FLUSH_MS = 5000

export interface UsageTake {
  allowed: boolean
  plan: string
  /** Monthly quota (null: unlimited). */
  quota: bigint | null
  /** The counter after this take's statement, when one ran (capped plans); else null. */
  units: bigint | null
  /** Units the statement added (for threshold crossings). */
  added: number
  alertThresholds: number[]
}

interface Counter {
  tenantId: string
  productId: string
  period: string
  /** Unknown until the first statement; then whether the plan has a hard cap. */
  capped: boolean | null
  plan: string
  quota: bigint | null
  alertThresholds: number[]
  /** Counted here, not yet flushed (uncapped). */
  pending: number
  /** Capped: requests waiting for the next reservation, and whether one is under way. */
  queue: { resolve: (take: UsageTake) => void; reject: (err: unknown) => void }[]
  reserving: boolean
}

interface ReserveRow {
  plan: string
  quota: string | null
  hard_cap: string | null
  granted: string
  units: string
  alert_thresholds: number[] | null
}

export class UsageBuffer {
  private readonly counters = new Map<string, Counter>()
  private readonly flusher: BatchFlusher<{ counter: Counter; units: number }>
  private stopped = false
  /** Statements run (each one write), for the benchmark. */
  readonly stats = { statements: 0 }
  /** Called after a flush moved a counter, with the units it added (usage alerts). */
  onCounted:
    | ((tenantId: string, productId: string, period: string, units: bigint, added: number) => void)
    | null = null

  constructor(
    private readonly sql: Sql,
    logger: Logger,
  ) {
    this.flusher = new BatchFlusher(
      USAGE_FLUSH_MS,
      {
        // One statement per counter with a pending count.
        take: () => {
          const batches: { counter: Counter; units: number }[] = []
          for (const counter of this.counters.values()) {
            if (counter.pending === 0) continue
            batches.push({ counter, units: counter.pending })
            counter.pending = 0
          }
          return batches
        },
        write: async ({ counter, units }) => {
          this.stats.statements++
          // As incurred: counts already admitted are recorded even if the plan has meanwhile
          // gained a hard cap.
          const [row] = await this.sql<{ units: string }[]>`
            select units from private.record_usage(${counter.tenantId}, ${counter.productId}, ${units}, ${counter.period}, true)`
          if (row)
            this.onCounted?.(counter.tenantId, counter.productId, counter.period, BigInt(row.units), units)
        },
        restore: ({ counter, units }) => {
          counter.pending += units
        },
        failure: 'usage flush failed',
      },
      logger,
    )
  }

  /** Units counted in memory and not yet in the database (for tests and the crash bound). */
  get unflushed(): number {
    let n = 0
    for (const c of this.counters.values()) n += c.pending
    return n
  }

  /** What this instance last learned of a counter's quota and the tenant's own thresholds. */
  quotaOf(
    tenantId: string,
    productId: string,
    period: string,
  ): { quota: bigint | null; thresholds: number[] } {
    const counter = this.counters.get(`${tenantId}:${productId}:${period}`)
    return { quota: counter?.quota ?? null, thresholds: counter?.alertThresholds ?? [] }
  }

  /** The tenant's plan changed: count what is pending, then learn the plan afresh. */
  forgetTenant(tenantId: string): void {
    for (const c of this.counters.values()) if (c.tenantId === tenantId) c.capped = null
  }

  /** Counts one unit of a product for a tenant, or refuses it (a hard cap reached). */
  async take(tenantId: string, productId: string, period: string): Promise<UsageTake> {
    const id = `${tenantId}:${productId}:${period}`
    let counter = this.counters.get(id)
    if (!counter) {
      counter = {
        tenantId,
        productId,
        period,
        capped: null,
        plan: '',
        quota: null,
        alertThresholds: [],
        pending: 0,
        queue: [],
        reserving: false,
      }
      this.counters.set(id, counter)
    }
    if (counter.capped === false && !this.stopped) {
      counter.pending++
      this.scheduleFlush()
      return this.result(counter, true, null, 0)
    }
    // Capped or not yet known: reserve, together with the requests already waiting here.
    return new Promise<UsageTake>((resolve, reject) => {
      counter.queue.push({ resolve, reject })
      if (!counter.reserving) this.reserve(counter)
    })
  }

  /**
   * One statement for every request of this instance waiting on the counter: the first `granted`
   * of them (in order of arrival) are admitted, the rest refused (the quota had no more room).
   * Requests that arrive meanwhile wait for the next statement.
   */
  private reserve(counter: Counter): void {
    const batch = counter.queue.splice(0)
    counter.reserving = true
    void (async () => {
      try {
        this.stats.statements++
        const [row] = await this.sql<ReserveRow[]>`
          select plan, quota::text, hard_cap::text, granted::text, units::text, alert_thresholds
          from private.reserve_usage(${counter.tenantId}, ${counter.productId}, ${batch.length}, ${counter.period})`
        if (!row) {
          for (const w of batch)
            w.resolve({
              allowed: false,
              plan: 'unknown',
              quota: null,
              units: null,
              added: 0,
              alertThresholds: [],
            })
          return
        }
        counter.capped = row.hard_cap !== null
        counter.plan = row.plan
        counter.quota = row.quota === null ? null : BigInt(row.quota)
        counter.alertThresholds = row.alert_thresholds ?? []
        const granted = Number(row.granted)
        batch.forEach((w, i) => {
          w.resolve(this.result(counter, i < granted, BigInt(row.units), i < granted ? granted : 0))
        })
      } catch (err) {
        for (const w of batch) w.reject(err)
      } finally {
        counter.reserving = false
        if (counter.queue.length > 0) this.reserve(counter)
      }
    })()
  }

  private result(counter: Counter, allowed: boolean, units: bigint | null, added: number): UsageTake {
    return {
      allowed,
      plan: counter.plan,
      quota: counter.quota,
      units,
      added,
      alertThresholds: counter.alertThresholds,
    }
  }

  private scheduleFlush(): void {
    if (!this.stopped) this.flusher.schedule()
  }

  /** Writes every pending count, one statement per counter. A failed one is kept for the next. */
  flush(): Promise<void> {
    return this.flusher.flush()
  }

  /** Flushes and stops buffering (shutdown). */
  close(): Promise<void> {
    this.stopped = true
    return this.flusher.close()
  }
}
