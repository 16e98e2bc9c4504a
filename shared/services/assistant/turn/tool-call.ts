import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { callTool, type ToolEntry } from '@shared/services/tools/tool-set.ts'
import type { ToolCallRow, TurnRow } from '../records.ts'
import type { TurnEmit } from './events.ts'
import { storeToolCallEnd } from './job-store.ts'
import { TOOL_TIME_LIMIT, type ToolCallEnd, toolErrorText, toolOutcomeText } from './shaping.ts'

/** Runs one tool call with the per-call time limit; the outcome is stored and sent as an event. */
export async function runToolCall(
  deps: FunctionDeps,
  ctx: ServiceContext,
  turn: TurnRow,
  call: ToolCallRow,
  entry: ToolEntry | undefined,
  emit: TurnEmit,
): Promise<void> {
  const end = entry
    ? await callWithTimeLimit(ctx, turn, call, entry)
    : {
        status: 'failed' as const,
        result: `There is no tool named ${call.name}. Use one of the tools listed.`,
      }
  await storeToolCallEnd(deps, turn, call, end)
  emit('tool_call.completed', { id: call.id, name: call.name, tool: call.tool, ...end })
}

async function callWithTimeLimit(
  ctx: ServiceContext,
  turn: TurnRow,
  call: ToolCallRow,
  entry: ToolEntry,
): Promise<ToolCallEnd> {
  const timeoutMs = ctx.config.MCP_TOOL_TIMEOUT_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const outcome = await Promise.race([
      callTool(ctx, entry.name, call.arguments, {
        scopes: turn.scopes,
        triggeredBy: turn.triggered_by,
        // A decided call that runs was approved (a denied one never runs).
        approved: call.decided_by !== null,
        // The turn's steps are accounted for in the usage log (platform tools too).
        logPlatformCall: true,
        timeoutMs,
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(TOOL_TIME_LIMIT)), timeoutMs + 1000)
      }),
    ])
    return toolOutcomeText(outcome)
  } catch (err) {
    const { unexpected, ...end } = toolErrorText(err, timeoutMs)
    if (unexpected) ctx.logger.error('assistant tool call failed', { tool: call.tool, error: String(err) })
    return end
  } finally {
    clearTimeout(timer)
  }
}
