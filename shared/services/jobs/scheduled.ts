import type { Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { enqueueOrJoin, type JobRow } from '@shared/infra/jobs/engine.ts'
import { nextRunAt, type ScheduleName } from './schedules.ts'

/**
 * A scheduled resource: a row with `enabled`, `schedule` and `next_run_at` whose run is a job (a
 * source's scrape, a destination's sync). Requests and the schedule queue it the same way: a job
 * already queued or running for the resource is joined, never doubled (enqueueOrJoin,
 * docs/adr/0006-job-engine.md).
 */
export interface ScheduledResource {
  /** Schema-qualified table, e.g. 'public.sources'. */
  table: string
  kind: string
  /** The job input's field naming the resource, e.g. 'source_id'. */
  resource: string
  maxAttempts: number
}

/** Queues the resource's job, or returns the one already queued or running. */
export function queueOrJoin(
  r: ScheduledResource,
  tx: Queryable,
  tenantId: string,
  resourceId: string,
  trigger: 'request' | 'schedule',
  now: Date,
  input: Record<string, unknown> = { trigger },
): Promise<{ job: JobRow; created: boolean }> {
  return enqueueOrJoin(tx, {
    tenantId,
    kind: r.kind,
    input: { [r.resource]: resourceId, ...input },
    resource: r.resource,
    maxAttempts: r.maxAttempts,
    now,
  })
}

/**
 * Queues the job of every enabled resource whose `next_run_at` has come and moves its next run on
 * (the sweep job; all tenants), in turns across tenants. Safe on several instances: due rows are
 * locked with SKIP LOCKED for this one transaction. Returns the ids of the jobs it created (joined ones are already running).
 */
export async function queueDueRuns(
  r: ScheduledResource,
  deps: Pick<FunctionDeps, 'sql' | 'clock'>,
  limit: number,
): Promise<string[]> {
  const now = deps.clock.now()
  return deps.sql.begin(async (tx) => {
    // In turns across tenants: each tenant's most overdue first, so one tenant's many schedules
    // cannot hold back another's.
    const due = await tx<{ id: string; tenant_id: string; schedule: ScheduleName }[]>`
      with ranked as (
        select id, row_number() over (partition by tenant_id order by next_run_at, id) as rank
        from ${tx(r.table)}
        where enabled and schedule is not null and next_run_at <= ${now}
      )
      select t.id, t.tenant_id, t.schedule from ${tx(r.table)} t join ranked on ranked.id = t.id
      where t.enabled and t.schedule is not null and t.next_run_at <= ${now}
      order by ranked.rank, t.next_run_at, t.id limit ${limit}
      for update of t skip locked`
    const ids: string[] = []
    for (const row of due) {
      await tx`update ${tx(r.table)} set next_run_at = ${nextRunAt(row.schedule, true, now)} where id = ${row.id}`
      const { job, created } = await queueOrJoin(r, tx, row.tenant_id, row.id, 'schedule', now)
      if (created) ids.push(job.id)
    }
    return ids
  }) as Promise<string[]>
}
