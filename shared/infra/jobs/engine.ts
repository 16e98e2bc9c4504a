/**
 * The one job engine for the server functions' background work (docs/adr/0006-job-engine.md).
 *
 * - enqueueJob() writes a `queued` row in the caller's transaction, so a job exists exactly when
 *   the request that asked for it committed.
 * - A worker claims due rows with FOR UPDATE SKIP LOCKED and a lease, in one short statement:
 *   any number of instances may run at once, and each claimed attempt runs on one of them.
 * - The handler registered for the job's kind runs outside any transaction. Its return value is
 *   the job's result; a JobError (or an error classified as transient) is retried with
 *   exponential backoff until max_attempts, anything permanent fails the job with its reason.
 * - Claiming and finishing are shared/infra/claim-lease.ts: finishing is fenced by the claim's lease
 *   token, so a worker whose lease ran out and whose job was claimed again cannot overwrite the
 *   newer attempt's outcome.
 *
 * Each function builds one engine over the kinds it owns (its handlers) and exposes a sweep job
 * (`<function>/jobs/sweep`, pg_cron on Supabase, the local scheduler in process) that runs due
 * and stalled jobs; after enqueueing, the request kicks the new job in process, on Supabase as a
 * background task (EdgeRuntime.waitUntil) so it continues after the response.
 */

import { runInBackground } from '../background.ts'
import {
  claimLeased,
  finishLeased,
  heldBy,
  type Lease,
  type LeaseColumns,
  recordBudgetMs,
  released,
} from '../claim-lease.ts'
import { type Queryable, retryWhileUnavailable } from '../db.ts'
import type { FunctionDeps, JobDeps } from '../deps.ts'
import { ServiceError } from '../errors.ts'
import { recordEvent } from '../events.ts'
import { OutboundBlockedError, OutboundError } from '../outbound.ts'

type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed'
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

export interface JobRow {
  id: string
  tenant_id: string
  kind: string
  input: Record<string, unknown>
  status: JobStatus
  attempts: number
  max_attempts: number
  run_after: Date
  lease_until: Date | null
  lease_id: string | null
  result: Json | null
  error: string | null
  created_by: string | null
  created_at: Date
  updated_at: Date
  started_at: Date | null
  finished_at: Date | null
}

/**
 * A job's failure with a readable reason. `transient` ones are retried with backoff (a provider's
 * 429 or 5xx, a time-out); others fail the job at once (a 404 feed, a rejected key).
 */
export class JobError extends Error {
  override name = 'JobError'
  readonly transient: boolean
  /** A delay the peer asked for (Retry-After), used instead of the backoff when longer. */
  readonly retryAfterMs?: number
  constructor(message: string, opts: { transient?: boolean; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause })
    this.transient = opts.transient ?? false
    this.retryAfterMs = opts.retryAfterMs
  }
}

/** Whether an error may pass on a later attempt, and the reason recorded on the job. */
function classifyJobError(err: unknown): {
  transient: boolean
  reason: string
  retryAfterMs?: number
  /** Not a failure the handler foresaw (a database hiccup, a bug): the engine logs it at error. */
  unexpected?: true
} {
  if (err instanceof JobError)
    return { transient: err.transient, reason: err.message, retryAfterMs: err.retryAfterMs }
  if (err instanceof OutboundBlockedError) return { transient: false, reason: err.message }
  if (err instanceof OutboundError) {
    // Time-outs and network failures may pass later; a body over the cap will not.
    return { transient: err.kind !== 'too_large', reason: err.message }
  }
  if (err instanceof ServiceError) {
    return { transient: err.code === 'RATE_LIMITED', reason: `${err.code}: ${err.message}` }
  }
  // Anything else is unexpected (a database hiccup, a bug): retried, and logged by the engine.
  return {
    transient: true,
    unexpected: true,
    reason: `internal error: ${err instanceof Error ? err.message : String(err)}`,
  }
}

/**
 * Whether this attempt is the job's last: its error will not pass later, or no attempts are left.
 * Handlers that record an outcome of their own (a source's or a destination's last run) record a
 * failure only then, so a retried attempt does not show as failed.
 */
export function isFinalAttempt(err: unknown, job: Pick<JobRow, 'attempts' | 'max_attempts'>): boolean {
  return !classifyJobError(err).transient || job.attempts >= job.max_attempts
}

/** What a handler runs with: the function's dependencies, its pool typed as the job's, and the claimed job. */
export interface JobRun {
  deps: JobDeps
  job: JobRow
}

export type JobHandler = (run: JobRun) => Promise<Json | undefined>

export interface JobKind {
  handler: JobHandler
  /** Attempts before the job fails (default 5). */
  maxAttempts?: number
  /** How long one attempt may own the job before another instance may take it over (default 300 s). */
  leaseSeconds?: number
}

export interface EnqueueInput {
  tenantId: string
  kind: string
  input: Record<string, unknown>
  maxAttempts?: number
  /** Not before this time (default now). */
  runAfter?: Date
  now: Date
}

/**
 * Queues a job. Pass the transaction of the request (withTenant): a tenant caller may only queue
 * for its own tenant and becomes the job's creator; a service connection queues for any tenant.
 */
export async function enqueueJob(db: Queryable, job: EnqueueInput): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    select * from private.enqueue_job(${job.tenantId}, ${job.kind}, ${db.json(job.input as never)},
                                      ${job.maxAttempts ?? 5}, ${job.runAfter ?? job.now}, ${job.now})`
  return row!
}

/**
 * Queues a job for one resource (a source to scrape, a destination to sync), or returns the one
 * already queued or running for it: triggers that meet (a request and the schedule, or two
 * instances) get one job and the work runs once. `resource` names the input field that identifies
 * the resource. A transaction-scoped advisory lock on the resource serialises the check and the
 * insert (transaction-scoped, so it holds through a transaction pooler). Pass the transaction of
 * the request or of the sweep.
 */
export async function enqueueOrJoin(
  tx: Queryable,
  job: EnqueueInput & { resource: string },
): Promise<{ job: JobRow; created: boolean }> {
  const resourceId = String(job.input[job.resource])
  await tx`select pg_advisory_xact_lock(hashtextextended(${`${job.kind}:${resourceId}`}, 0))`
  const [running] = await tx<JobRow[]>`
    select * from public.jobs where tenant_id = ${job.tenantId} and kind = ${job.kind}
      and input->>${job.resource} = ${resourceId} and status in ('queued', 'running')
    order by created_at limit 1`
  if (running) return { job: running, created: false }
  return { job: await enqueueJob(tx, job), created: true }
}

/** First retry after 2 s, doubling, at most 10 minutes; with up to 20% jitter so retries spread. */
function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(2000 * 2 ** Math.max(0, attempt - 1), 600_000)
  return Math.round(base * (1 + 0.2 * random()))
}

const MAX_ERROR_LENGTH = 2000
const JOB_LEASE: LeaseColumns = { token: 'lease_id', until: 'lease_until' }

interface SweepReport {
  succeeded: number
  failed: number
  retried: number
}

export interface JobEngine {
  readonly kinds: readonly string[]
  /** Claims and runs due jobs of this engine's kinds (all of them, or only `ids`) until none is left. */
  runDue(opts?: { ids?: string[]; limit?: number }): Promise<SweepReport>
  /**
   * Runs `ids` now, in the background: on Supabase as a background task that outlives the
   * response (EdgeRuntime.waitUntil), elsewhere as a promise the process keeps. Never throws.
   */
  kick(ids: string[]): void
  /** Resolves when every kicked run so far has ended (tests, benchmarks, shutdown). */
  idle(): Promise<void>
}

/**
 * A function's engine for its kinds, made once per function instance (its deps) on first use:
 * `export const scrapeEngine = engineFor({ [SCRAPE_JOB_KIND]: { ... } })`.
 */
export function engineFor(kinds: Record<string, JobKind>): (deps: FunctionDeps) => JobEngine {
  const engines = new WeakMap<FunctionDeps, JobEngine>()
  return (deps) => {
    let engine = engines.get(deps)
    if (!engine) {
      engine = createJobEngine(deps, kinds)
      engines.set(deps, engine)
    }
    return engine
  }
}

export function createJobEngine(
  deps: FunctionDeps,
  kinds: Record<string, JobKind>,
  opts: { random?: () => number } = {},
): JobEngine {
  const names = Object.keys(kinds)
  const random = opts.random ?? Math.random
  const running = new Set<Promise<unknown>>()
  const { sql, logger, clock } = deps
  // The same object: only its type changes, to say that handlers hold the pool as a job.
  const jobDeps = deps as unknown as JobDeps

  async function claim(limit: number, ids?: string[]): Promise<{ lease: Lease; jobs: JobRow[] }> {
    const now = clock.now()
    // One lease for the batch: the longest of the kinds (each kind states its own).
    const lease = Math.max(...names.map((k) => kinds[k]!.leaseSeconds ?? 300))
    const { lease: claimed, rows } = await claimLeased<JobRow>(sql, {
      table: 'public.jobs',
      columns: JOB_LEASE,
      leaseMs: lease * 1000,
      now,
      // A running job is due again only once its lease ran out (checked by claimLeased).
      due: sql`kind in ${sql(names)} ${ids ? sql`and id in ${sql(ids)}` : sql``}
        and attempts < max_attempts
        and ((status = 'queued' and run_after <= ${now}) or status = 'running')`,
      order: sql`run_after, id`,
      limit,
      also: sql`status = 'running', attempts = t.attempts + 1, started_at = coalesce(t.started_at, ${now}),
        updated_at = ${now}`,
      returning: sql`t.*`,
    })
    return { lease: claimed, jobs: rows }
  }

  /** The tenant's job.failed event for a job that failed for good, in the transaction that fails it. */
  function recordJobFailed(
    tx: Queryable,
    job: Pick<JobRow, 'id' | 'tenant_id' | 'kind' | 'attempts' | 'max_attempts' | 'error'>,
    reason: 'permanent_error' | 'retries_exhausted' | 'stalled',
    now: Date,
  ) {
    return recordEvent(tx, {
      tenantId: job.tenant_id,
      type: 'job.failed',
      at: now,
      data: {
        job_id: job.id,
        kind: job.kind,
        attempts: job.attempts,
        max_attempts: job.max_attempts,
        reason,
        error: job.error,
        failed_at: now.toISOString(),
      },
    })
  }

  /** Jobs whose last attempt's lease ran out with no attempts left: the worker died each time. */
  async function failStalled(): Promise<number> {
    const now = clock.now()
    const rows = await sql.begin(async (tx) => {
      const failed = await tx<JobRow[]>`
        update public.jobs set status = 'failed', finished_at = ${now}, updated_at = ${now}, lease_until = null, lease_id = null,
          error = 'the job stopped without finishing ' || attempts || ' times (worker crash or time-out)'
        where kind in ${tx(names)} and status = 'running' and lease_until < ${now}
          and attempts >= max_attempts
        returning id, tenant_id, kind, attempts, max_attempts, error`
      for (const row of failed) await recordJobFailed(tx, row, 'stalled', now)
      return failed
    })
    if (rows.length > 0) deps.onOutboxCommitted?.()
    for (const row of rows)
      logger.warn('job failed', {
        tenant_id: row.tenant_id,
        job_id: row.id,
        kind: row.kind,
        reason: row.error,
      })
    return rows.length
  }

  /** Runs one claimed attempt; the outcome is written only while this attempt still owns the job. */
  async function runOne(job: JobRow, lease: Lease, report: SweepReport): Promise<void> {
    const kind = kinds[job.kind]!
    let outcome: { result?: Json | undefined; error?: unknown }
    try {
      outcome = { result: await kind.handler({ deps: jobDeps, job }) }
    } catch (error) {
      outcome = { error }
    }
    const now = clock.now()
    // The handler's work is done: its outcome waits out a database restart while the lease holds
    // (finishLeased) rather than being lost, which would run the job again when its lease ran out;
    // it is written only while this attempt still owns the job.
    if (!('error' in outcome)) {
      await finishLeased(
        sql,
        lease,
        job.id,
        sql`status = 'succeeded', result = ${sql.json((outcome.result ?? null) as never)},
          error = null, finished_at = ${now}, updated_at = ${now}`,
      )
      report.succeeded++
      return
    }
    const { transient, reason, retryAfterMs, unexpected } = classifyJobError(outcome.error)
    const error = reason.slice(0, MAX_ERROR_LENGTH)
    const willRetry = transient && job.attempts < job.max_attempts
    const delay = willRetry ? Math.max(backoffMs(job.attempts, random), retryAfterMs ?? 0) : 0
    // One line per failed attempt, in the terminal as in production: who, which job, why, and
    // whether it is retried. An unexpected error is an error (with its text); the rest warnings.
    const fields = {
      tenant_id: job.tenant_id,
      job_id: job.id,
      kind: job.kind,
      attempt: `${job.attempts}/${job.max_attempts}`,
      reason: error,
      ...(willRetry && { retry_in_s: Math.ceil(delay / 1000) }),
    }
    if (unexpected)
      logger.error(willRetry ? 'job attempt failed unexpectedly' : 'job failed unexpectedly', {
        ...fields,
        error: String(outcome.error),
      })
    else logger.warn(willRetry ? 'job attempt failed; retrying' : 'job failed', fields)
    if (willRetry) {
      await finishLeased(
        sql,
        lease,
        job.id,
        sql`status = 'queued', error = ${error}, run_after = ${new Date(now.getTime() + delay)}, updated_at = ${now}`,
      )
      report.retried++
    } else {
      // Failed for good: the status and the tenant's job.failed event commit together, and only
      // while this attempt still owns the job.
      const failed = await retryWhileUnavailable(
        () =>
          sql.begin(async (tx) => {
            const [row] = await tx`
              update public.jobs set status = 'failed', error = ${error}, finished_at = ${now}, updated_at = ${now},
                ${released(tx, lease)}
              where id = ${job.id} and ${heldBy(tx, lease)}
              returning id`
            if (!row) return false
            await recordJobFailed(
              tx,
              { ...job, error },
              transient ? 'retries_exhausted' : 'permanent_error',
              now,
            )
            return true
          }),
        recordBudgetMs(lease),
      )
      if (failed) deps.onOutboxCommitted?.()
      report.failed++
    }
  }

  const engine: JobEngine = {
    kinds: names,
    async runDue(o = {}) {
      const report: SweepReport = { succeeded: 0, failed: 0, retried: 0 }
      if (!o.ids) report.failed += await failStalled()
      const limit = o.limit ?? 10
      // Claim a batch, run it, and go on while there is work (bounded: a sweep is one HTTP call).
      for (let round = 0; round < 20; round++) {
        const { lease, jobs } = await claim(limit, o.ids)
        if (jobs.length === 0) break
        await Promise.all(jobs.map((job) => runOne(job, lease, report)))
        if (o.ids) break
      }
      return report
    },
    kick(ids) {
      const run: Promise<unknown> = engine
        .runDue({ ids })
        .catch((err) =>
          logger.warn('job kick failed; the sweep will run it', { job_ids: ids, error: String(err) }),
        )
        .finally(() => running.delete(run))
      running.add(run)
      runInBackground(run)
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running])
    },
  }
  return engine
}
