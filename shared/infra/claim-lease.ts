/**
 * Claim-and-lease: the one way a row is taken for work done outside a transaction (a job's
 * handler, an e-mail, a token refresh, applying a commerce delivery). docs/adr/0006-job-engine.md
 * compares the places that use it.
 *
 * - Claim: one short UPDATE over a `FOR UPDATE SKIP LOCKED` subquery picks due rows whose lease is
 *   absent or ran out, stamps them with a new lease (a token and the time it runs out) and
 *   commits. No row lock or connection is held while the work runs, so it works through a
 *   transaction pooler, and a claimer that dies leaves a lease that simply runs out.
 * - Fence: every write of an outcome carries `heldBy(lease)` (the row still has this claim's
 *   token), so a worker whose lease ran out and whose row was claimed again cannot overwrite the
 *   newer claim's outcome. `finishLeased` writes one row's outcome that way and releases the lease.
 * - Restart: the work is already done when its outcome is written, so that write waits out an
 *   unavailable database (retryWhileUnavailable) for as long as the lease still holds, instead of
 *   being lost and the work done again.
 */
import type postgres from 'postgres'
import { type Queryable, retryWhileUnavailable } from './db.ts'

export type Fragment = postgres.PendingQuery<postgres.Row[]>

/** Where a table keeps its lease. */
export interface LeaseColumns {
  /** The claim's token (uuid): outcomes are fenced on it. */
  token: string
  /** When the lease runs out (timestamptz). */
  until: string
}

/** One claim's lease over the rows it took. */
export interface Lease {
  table: string
  columns: LeaseColumns
  token: string
  until: Date
  /** Real time (performance.now) at which the lease runs out, for bounding retries under fake clocks. */
  expiresAt: number
}

export interface ClaimSpec {
  /** Schema-qualified table with a uuid `id`, e.g. 'public.jobs'. */
  table: string
  columns: LeaseColumns
  leaseMs: number
  /** The clock's now (the lease runs out at now + leaseMs). */
  now: Date
  /** Which rows are due, apart from their lease (which is checked here: absent, or ran out). */
  due: Fragment
  order: Fragment
  limit: number
  /** More assignments the claim makes, on the claimed row `t` (e.g. `attempts = t.attempts + 1`). */
  also?: Fragment
  /** What the claim returns, of `t` (e.g. `t.*`). */
  returning: Fragment
}

/** A new lease from `now`, for `leaseMs`. */
export function newLease(table: string, columns: LeaseColumns, now: Date, leaseMs: number): Lease {
  return {
    table,
    columns,
    token: crypto.randomUUID(),
    until: new Date(now.getTime() + leaseMs),
    expiresAt: performance.now() + leaseMs,
  }
}

/**
 * Claims up to `limit` due rows under one new lease, in one statement. Concurrent claimers skip
 * each other's locked rows; the lease keeps them away once the statement has committed.
 */
export async function claimLeased<T extends postgres.Row>(
  sql: Queryable,
  spec: ClaimSpec,
): Promise<{ lease: Lease; rows: T[] }> {
  const lease = newLease(spec.table, spec.columns, spec.now, spec.leaseMs)
  const table = sql(spec.table)
  const until = sql(spec.columns.until)
  const rows = await sql<T[]>`
    update ${table} t
    set ${sql(spec.columns.token)} = ${lease.token}, ${until} = ${lease.until}
        ${spec.also ? sql`, ${spec.also}` : sql``}
    from (
      select id from ${table}
      where (${spec.due}) and (${until} is null or ${until} <= ${spec.now})
      order by ${spec.order}
      limit ${spec.limit}
      for update skip locked
    ) due
    where t.id = due.id
    returning ${spec.returning}`
  return { lease, rows }
}

/** The condition that a row is still held by `lease`: every outcome's write carries it. */
export function heldBy(sql: Queryable, lease: Lease): Fragment {
  return sql`${sql(lease.columns.token)} = ${lease.token}` as Fragment
}

/**
 * The assignments that give the lease up (with an outcome, or to retry later). `notBefore` keeps
 * the row from being claimed again before then (the notifier's backoff lives in its lease column).
 */
export function released(sql: Queryable, lease: Lease, notBefore: Date | null = null): Fragment {
  return sql`${sql(lease.columns.token)} = null, ${sql(lease.columns.until)} = ${notBefore}` as Fragment
}

/**
 * How long an outcome's write may wait for an unavailable database: while the lease holds, less
 * `marginMs`. After that another claimer may have the row, and the fence would refuse it anyway.
 */
export function recordBudgetMs(lease: Lease, marginMs = 5_000): number {
  return Math.max(0, lease.expiresAt - performance.now() - marginMs)
}

/**
 * Writes one row's outcome (`set`) and releases its lease, only while the lease is still this
 * claim's. Waits out an unavailable database while the lease holds. False when the lease was lost.
 */
export async function finishLeased(
  sql: Queryable,
  lease: Lease,
  id: string,
  set: Fragment,
  opts: { notBefore?: Date | null } = {},
): Promise<boolean> {
  const rows = await retryWhileUnavailable(
    () => sql`
      update ${sql(lease.table)} set ${set}, ${released(sql, lease, opts.notBefore ?? null)}
      where id = ${id} and ${heldBy(sql, lease)}
      returning id`,
    recordBudgetMs(lease),
  )
  return rows.length === 1
}
