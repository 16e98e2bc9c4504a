import type { ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { toolAlias } from '@shared/services/integrations/catalog.ts'
import { getJob } from '@shared/services/jobs/jobs.ts'
import { type PlatformTool, platformTools } from '../platform-tools.ts'
import { callerToolSubset, inSubset } from '../tool-subset.ts'
import { clampTtl, createTask, getTask, type McpTask } from './store.ts'

/**
 * Starting a tool call as an MCP task, and its result once the task has ended (docs/mcp.md
 * "Tasks"). Only the tools whose work is a job of the job engine can (PlatformTool.task):
 * platform:generate_draft, which waits on a model.
 */

const taskTools = platformTools.filter((t) => t.task)

/** The MCP names (platform__generate_draft) of the tools that may run as tasks. */
export const taskToolNames: readonly string[] = taskTools.map((t) => toolAlias(t.name))

const taskTool = (name: string): PlatformTool | undefined =>
  taskTools.find((t) => t.name === name || toolAlias(t.name) === name)

/**
 * Queues the call's work and records the task; null when the call is not one that can start here
 * (no such task tool, a scope or subset refusal, invalid arguments, the tenant's own refusal such
 * as an unknown site or an exhausted quota): the caller then runs it as an ordinary call, which
 * answers with the reason.
 */
export async function startTask(
  ctx: ServiceContext,
  call: { name: string; args: Record<string, unknown>; scopes: string[]; ttlMs: number | undefined },
): Promise<McpTask | null> {
  const tool = taskTool(call.name)
  if (!tool?.task || !call.scopes.includes(tool.scope)) return null
  if (!inSubset(await callerToolSubset(ctx), { name: tool.name, mcpName: toolAlias(tool.name) }, toolAlias))
    return null
  const parsed = tool.params.safeParse(call.args)
  if (!parsed.success) return null
  let jobId: string
  try {
    jobId = await tool.task.start(ctx, parsed.data)
  } catch (err) {
    if (err instanceof ServiceError && err.status < 500 && err.code !== 'RATE_LIMITED') return null
    throw err
  }
  return createTask(ctx, { tool: tool.name, jobId, ttlMs: clampTtl(call.ttlMs) })
}

/** An ended task's tool result: what the tool answers when called without a task. */
export async function taskOutcome(
  ctx: ServiceContext,
  taskId: string,
): Promise<{ task: McpTask; outcome: unknown }> {
  const record = await getTask(ctx, taskId)
  const tool = taskTool(record.tool)
  const job = await getJob(ctx, record.jobId)
  return { task: record.task, outcome: tool?.task?.outcome(job) ?? job.result }
}
