import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { z } from 'zod'

/**
 * MCP tasks as the tool server keeps them (docs/mcp.md "Tasks", docs/adr/0044): a row of
 * public.mcp_tasks naming the job that does the work. Every read is the caller's, under row-level
 * security, and sees only the tasks of the caller's own key: another key's or tenant's task id,
 * and an expired one, are not found.
 */

/** How long a task and its result are kept: the client's ttl, within these bounds. */
const TASK_TTL_MS = { default: 15 * 60_000, min: 60_000, max: 60 * 60_000 } as const
/** How often a client is asked to poll tasks/get. */
const POLL_INTERVAL_MS = 1000
/** tasks/list's page size. */
const LIST_LIMIT = 50

type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled'

/** A task as MCP's Task object names it. */
export interface McpTask {
  taskId: string
  status: TaskStatus
  statusMessage?: string
  createdAt: string
  lastUpdatedAt: string
  ttl: number
  pollInterval: number
}

/** A task with what its job holds, for the tool's result. */
export interface TaskRecord {
  task: McpTask
  tool: string
  jobId: string
}

interface TaskRow {
  id: string
  tool: string
  job_id: string
  ttl_ms: number
  poll_interval_ms: number
  created_at: Date
  cancelled_at: Date | null
  job_status: 'queued' | 'running' | 'succeeded' | 'failed'
  job_error: string | null
  job_updated_at: Date
}

/** The key the caller came with: tasks belong to it. Only tool-server keys and grants call tools. */
function keyOf(ctx: ServiceContext): string {
  const caller = ctx.caller
  if (!('keyId' in caller)) throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Tasks belong to a key')
  return caller.keyId
}

export const clampTtl = (requested: number | undefined): number =>
  requested === undefined
    ? TASK_TTL_MS.default
    : Math.min(TASK_TTL_MS.max, Math.max(TASK_TTL_MS.min, Math.round(requested)))

function present(row: TaskRow): TaskRecord {
  const status: TaskStatus = row.cancelled_at
    ? 'cancelled'
    : row.job_status === 'succeeded'
      ? 'completed'
      : row.job_status === 'failed'
        ? 'failed'
        : 'working'
  const updated =
    row.cancelled_at && row.cancelled_at > row.job_updated_at ? row.cancelled_at : row.job_updated_at
  return {
    tool: row.tool,
    jobId: row.job_id,
    task: {
      taskId: row.id,
      status,
      ...(status === 'failed' && row.job_error && { statusMessage: row.job_error.slice(0, 1000) }),
      ...(status === 'cancelled' && { statusMessage: 'Cancelled by the client' }),
      createdAt: row.created_at.toISOString(),
      lastUpdatedAt: updated.toISOString(),
      ttl: row.ttl_ms,
      pollInterval: row.poll_interval_ms,
    },
  }
}

const taskColumns = (q: Queryable) => q`
  t.id, t.tool, t.job_id, t.ttl_ms, t.poll_interval_ms, t.created_at, t.cancelled_at,
  j.status as job_status, j.error as job_error, j.updated_at as job_updated_at`

/** Records a task for a job just queued in the caller's tenant. */
export async function createTask(
  ctx: ServiceContext,
  input: { tool: string; jobId: string; ttlMs: number },
): Promise<McpTask> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const [row] = await ctx.asTenant(
    (tx) => tx<{ id: string }[]>`
      insert into public.mcp_tasks (tenant_id, key_id, tool, job_id, ttl_ms, poll_interval_ms, created_at, expires_at)
      values (${caller.tenantId}, ${keyOf(ctx)}, ${input.tool}, ${input.jobId}, ${input.ttlMs},
              ${POLL_INTERVAL_MS}, ${now}, ${new Date(now.getTime() + input.ttlMs)})
      returning id`,
  )
  return (await getTask(ctx, row!.id)).task
}

/** The caller's task, or NOT_FOUND (unknown, another key's, or past its ttl). */
export async function getTask(ctx: ServiceContext, taskId: string): Promise<TaskRecord> {
  if (!z.uuid().safeParse(taskId).success) throw notFound('Task')
  const { caller } = ctx
  const key = keyOf(ctx)
  const now = ctx.clock.now()
  const [row] = await ctx.readAsTenant(
    (q) => q<TaskRow[]>`
      select ${taskColumns(q)} from public.mcp_tasks t join public.jobs j on j.id = t.job_id
      where t.id = ${taskId} and t.tenant_id = ${caller.tenantId} and t.key_id = ${key}
        and t.expires_at > ${now}`,
  )
  if (!row) throw notFound('Task')
  return present(row)
}

const cursorSchema = z.object({ at: isoTimestamp(), id: z.uuid() })

/** The caller's live tasks, newest first, a page at a time (the cursor is opaque to the client). */
export async function listTasks(
  ctx: ServiceContext,
  cursor: string | undefined,
): Promise<{ tasks: McpTask[]; nextCursor?: string }> {
  let after: z.infer<typeof cursorSchema> | null = null
  if (cursor !== undefined) {
    let decoded: unknown = null
    try {
      decoded = JSON.parse(atob(cursor))
    } catch {}
    const parsed = cursorSchema.safeParse(decoded)
    if (!parsed.success) throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor')
    after = parsed.data
  }
  const { caller } = ctx
  const key = keyOf(ctx)
  const now = ctx.clock.now()
  const rows = await ctx.readAsTenant(
    (q) => q<TaskRow[]>`
      select ${taskColumns(q)} from public.mcp_tasks t join public.jobs j on j.id = t.job_id
      where t.tenant_id = ${caller.tenantId} and t.key_id = ${key} and t.expires_at > ${now}
        ${after ? q`and (t.created_at, t.id) < (${new Date(after.at)}, ${after.id})` : q``}
      order by t.created_at desc, t.id desc limit ${LIST_LIMIT + 1}`,
  )
  const page = rows.slice(0, LIST_LIMIT)
  const last = page.at(-1)
  return {
    tasks: page.map((r) => present(r).task),
    ...(rows.length > LIST_LIMIT &&
      last && { nextCursor: btoa(JSON.stringify({ at: last.created_at.toISOString(), id: last.id })) }),
  }
}

/**
 * Cancels a working task: marked here (any instance), read by the instance that runs its job
 * (cancel-watch.ts), which stops the work. A task that has ended is a CONFLICT.
 */
export async function cancelTask(ctx: ServiceContext, taskId: string): Promise<McpTask> {
  const current = await getTask(ctx, taskId)
  if (current.task.status !== 'working')
    throw new ServiceError(
      'CONFLICT',
      `Cannot cancel task: already in terminal status '${current.task.status}'`,
    )
  const { caller } = ctx
  const now = ctx.clock.now()
  const marked = await ctx.asTenant(
    (tx) => tx`
      update public.mcp_tasks t set cancelled_at = ${now}
      where t.id = ${taskId} and t.tenant_id = ${caller.tenantId} and t.key_id = ${keyOf(ctx)}
        and t.cancelled_at is null
        and exists (select 1 from public.jobs j where j.id = t.job_id and j.status in ('queued', 'running'))
      returning t.id`,
  )
  const after = await getTask(ctx, taskId)
  if (marked.length === 0 && after.task.status !== 'cancelled')
    throw new ServiceError(
      'CONFLICT',
      `Cannot cancel task: already in terminal status '${after.task.status}'`,
    )
  return after.task
}
