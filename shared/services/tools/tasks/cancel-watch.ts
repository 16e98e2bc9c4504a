import type { Queryable } from '@shared/infra/db.ts'
import type { JobRow } from '@shared/infra/jobs/engine.ts'

/**
 * The job side of an MCP task's cancellation (docs/mcp.md "Tasks"). tasks/cancel may reach any
 * instance; the instance that runs the task's job learns of it here, by reading the task's row:
 * before the work starts, every CANCEL_POLL_MS while a model call is under way (the watch aborts
 * it), and before the work writes anything. A job that is no MCP task is read once, and not
 * watched.
 */

const CANCEL_POLL_MS = 500

export const TASK_CANCELLED = 'cancelled: the MCP task was cancelled'

/** Whether the job runs an MCP task, and whether that task was cancelled. */
async function taskOf(sql: Queryable, job: Pick<JobRow, 'id' | 'tenant_id'>) {
  const [row] = await sql<{ cancelled: boolean }[]>`
    select cancelled_at is not null as cancelled from public.mcp_tasks
    where job_id = ${job.id} and tenant_id = ${job.tenant_id}`
  return row
}

export interface CancelWatch {
  /** Aborted when the task is cancelled (never, for a job that is no task). */
  signal: AbortSignal
  /** Reads the mark now (the last check before writing). */
  cancelled(): Promise<boolean>
  stop(): void
}

export async function watchTaskCancel(
  sql: Queryable,
  job: Pick<JobRow, 'id' | 'tenant_id'>,
): Promise<CancelWatch> {
  const controller = new AbortController()
  const task = await taskOf(sql, job)
  if (task?.cancelled) controller.abort(new Error(TASK_CANCELLED))
  let timer: ReturnType<typeof setInterval> | undefined
  if (task && !task.cancelled) {
    timer = setInterval(() => {
      taskOf(sql, job).then(
        (t) => {
          if (t?.cancelled) controller.abort(new Error(TASK_CANCELLED))
        },
        () => {}, // a missed read: the next one, or the check before writing, decides
      )
    }, CANCEL_POLL_MS)
  }
  const stop = () => clearInterval(timer)
  controller.signal.addEventListener('abort', stop, { once: true })
  return {
    signal: controller.signal,
    async cancelled() {
      if (controller.signal.aborted) return true
      return task ? ((await taskOf(sql, job))?.cancelled ?? false) : false
    },
    stop,
  }
}
