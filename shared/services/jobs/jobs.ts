import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import type { JobRow } from '@shared/infra/jobs/engine.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { AcceptedJob, Job } from './schema.ts'

/** The tenant's view of the job engine's rows: list and get, under row-level security. */

function presentJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    input: row.input,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    run_after: row.run_after.toISOString(),
    result: row.result,
    error: row.error,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  }
}

export function acceptedJob(row: Pick<JobRow, 'id' | 'kind' | 'status'>): AcceptedJob {
  return { job_id: row.id, kind: row.kind, status: row.status, status_url: `/api/jobs/${row.id}` }
}

export async function listJobs(
  ctx: ServiceContext,
  page: PageRequest & { kind?: string; status?: Job['status']; origin?: 'background' },
): Promise<Page<Job>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at' }, presentJob, (keyset) =>
    ctx.asTenant(
      (tx) => tx<JobRow[]>`
      select * from public.jobs
      where tenant_id = ${caller.tenantId}
        ${page.kind ? tx`and kind in ${tx(page.kind.split(','))}` : tx``}
        ${page.status ? tx`and status = ${page.status}` : tx``}
        ${page.origin === 'background' ? tx`and not (kind = 'assistant.turn' and created_by is not null)` : tx``}
        ${keyset(tx)}`,
    ),
  )
}

export async function getJob(ctx: ServiceContext, id: string): Promise<Job> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<JobRow[]>`select * from public.jobs where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Job')
  return presentJob(row)
}
