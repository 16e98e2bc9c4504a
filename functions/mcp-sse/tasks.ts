import { ProtocolErrorCode } from '@modelcontextprotocol/server'
import { ServiceError } from '@shared/infra/errors.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { serviceContext } from '@shared/infra/http/define-route.ts'
import { describeError } from '@shared/infra/logger.ts'
import { startTask, taskOutcome, taskToolNames } from '@shared/services/tools/tasks/start.ts'
import { cancelTask, getTask, listTasks, type McpTask } from '@shared/services/tools/tasks/store.ts'
import type { Context } from 'hono'
import { z } from 'zod'
import { keyScopes } from './tool-auth.ts'

/**
 * MCP tasks on the tool server (MCP 2025-11-25, docs/mcp.md "Tasks", docs/adr/0044): a tools/call
 * with `params.task` of a tool that declares execution.taskSupport is answered at once with a
 * CreateTaskResult, and tasks/get, tasks/result, tasks/list and tasks/cancel answer from the
 * database, so any instance answers them. The official SDK's v2 line has no runtime for task
 * messages (it keeps their 2025-11-25 wire types only), so they are answered here, before the SDK
 * sees the message, on the handshake revisions' leg only: MCP 2026-07-28 moved tasks out of the
 * core protocol into an extension.
 */

/** What the server declares in initialize (2025-11-25) when it serves tasks. */
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } }
/** How long tasks/result holds the request for a working task before telling the client to poll. */
const RESULT_WAIT_MS = 60_000
const RESULT_POLL_MS = 250
const RELATED_TASK = 'io.modelcontextprotocol/related-task'

const id = z.union([z.string().max(200), z.number()])
const taskIdParams = z.object({ taskId: z.string().max(100) }).passthrough()
const taskMessage = z.discriminatedUnion('method', [
  z.object({
    id,
    method: z.literal('tools/call'),
    params: z
      .object({
        name: z.string().max(200),
        arguments: z.record(z.string(), z.unknown()).optional(),
        task: z.object({ ttl: z.number().int().positive().optional() }).passthrough(),
      })
      .passthrough(),
  }),
  z.object({ id, method: z.literal('tasks/get'), params: taskIdParams }),
  z.object({ id, method: z.literal('tasks/result'), params: taskIdParams }),
  z.object({ id, method: z.literal('tasks/cancel'), params: taskIdParams }),
  z.object({
    id,
    method: z.literal('tasks/list'),
    params: z
      .object({ cursor: z.string().max(500).optional() })
      .passthrough()
      .optional(),
  }),
])

const TASK_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'])

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
const rpcError = (msgId: unknown, code: number, message: string) =>
  json({ jsonrpc: '2.0', id: msgId, error: { code, message } })

/** A finished task's result as tools/call would have answered (the tool's JSON, its structure). */
function callResult(task: McpTask, outcome: unknown) {
  const meta = { _meta: { [RELATED_TASK]: { taskId: task.taskId } } }
  if (task.status === 'cancelled')
    return { content: [{ type: 'text', text: 'The task was cancelled' }], isError: true, ...meta }
  const failed = task.status === 'failed'
  const structured =
    outcome !== null && typeof outcome === 'object' && !Array.isArray(outcome)
      ? { structuredContent: outcome }
      : {}
  return {
    content: [{ type: 'text', text: JSON.stringify(outcome) }],
    ...structured,
    ...(failed && { isError: true }),
    ...meta,
  }
}

/**
 * Answers a task message (tasks/*, or a tools/call asking for a task of a tool that can run as one)
 * as its JSON-RPC response; null for any other message, which the SDK answers (a tools/call that
 * asked for a task of a tool that cannot, or that is refused, runs as an ordinary call).
 */
export async function answerTaskMessage(c: Context<AppEnv>, message: unknown): Promise<Response | null> {
  const m = message as { id?: unknown; method?: unknown; params?: { task?: unknown } }
  const isTaskCall = m.method === 'tools/call' && m.params?.task !== undefined
  if (!isTaskCall && !TASK_METHODS.has(String(m.method))) return null
  const parsed = taskMessage.safeParse(message)
  if (!parsed.success) {
    if (isTaskCall) return null
    return rpcError(m.id ?? null, ProtocolErrorCode.InvalidParams, 'Invalid params')
  }
  const msg = parsed.data
  const ctx = serviceContext(c)
  try {
    const result = await (async () => {
      switch (msg.method) {
        case 'tools/call': {
          const task = await startTask(ctx, {
            name: msg.params.name,
            args: msg.params.arguments ?? {},
            scopes: keyScopes(c),
            ttlMs: msg.params.task.ttl,
          })
          return task && { task }
        }
        case 'tasks/get':
          return (await getTask(ctx, msg.params.taskId)).task
        case 'tasks/result':
          return await waitForResult(c, msg.params.taskId)
        case 'tasks/cancel':
          return await cancelTask(ctx, msg.params.taskId)
        case 'tasks/list':
          return await listTasks(ctx, msg.params?.cursor)
      }
    })()
    if (result === null) return null
    return json({ jsonrpc: '2.0', id: msg.id, result })
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'NOT_FOUND')
      return rpcError(msg.id, ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found')
    if (err instanceof ServiceError && err.status < 500 && err.code !== 'RATE_LIMITED')
      return rpcError(msg.id, ProtocolErrorCode.InvalidParams, err.message)
    c.var.deps.logger.error('tool server task error', { request_id: c.var.requestId, ...describeError(err) })
    return rpcError(msg.id, ProtocolErrorCode.InternalError, 'Internal error')
  }
}

/**
 * tasks/result: the tool's result once the task has ended. The request is held while the task
 * works (each instance reads the shared row, so the work may run anywhere), up to RESULT_WAIT_MS.
 */
async function waitForResult(c: Context<AppEnv>, taskId: string) {
  const ctx = serviceContext(c)
  const until = Date.now() + RESULT_WAIT_MS
  for (;;) {
    const { task } = await getTask(ctx, taskId)
    if (task.status !== 'working') {
      const { outcome } = await taskOutcome(ctx, taskId)
      return callResult(task, outcome)
    }
    if (Date.now() >= until || c.req.raw.signal.aborted)
      throw new ServiceError('CONFLICT', 'The task is still working: poll tasks/get, then ask again')
    await new Promise((r) => setTimeout(r, RESULT_POLL_MS))
  }
}

/**
 * The SDK's answer to initialize and tools/list, with what tasks add on 2025-11-25: the tasks
 * capability, and execution.taskSupport 'optional' on the tools that can run as tasks.
 */
export async function withTaskSupport(message: unknown, res: Response): Promise<Response> {
  const method = (message as { method?: unknown }).method
  if (method !== 'initialize' && method !== 'tools/list') return res
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return res
  const body = await res.text()
  let parsed: { result?: Record<string, any> }
  try {
    parsed = JSON.parse(body)
  } catch {
    return new Response(body, { status: res.status, headers: res.headers })
  }
  const result = parsed.result
  if (method === 'initialize' && result?.protocolVersion === '2025-11-25' && result.capabilities)
    result.capabilities.tasks = TASKS_CAPABILITY
  if (method === 'tools/list' && Array.isArray(result?.tools))
    for (const tool of result.tools)
      if (taskToolNames.includes(tool?.name)) tool.execution = { taskSupport: 'optional' }
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(parsed), { status: res.status, headers })
}
