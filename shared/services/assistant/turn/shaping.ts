import { ServiceError } from '@shared/infra/errors.ts'
import type { ToolEntry, ToolOutcome } from '@shared/services/tools/tool-set.ts'
import type { HistoryItem, ModelTool } from '../model.ts'
import {
  type MessageRow,
  presentMessage,
  presentToolCall,
  presentTurn,
  type ToolCallRow,
  type TurnRow,
} from '../records.ts'
import type { TurnResult } from '../schema.ts'
import { HISTORY_MESSAGES, MAX_TOOL_RESULT_CHARS } from './limits.ts'

/** What a turn shows the model and the client, computed from stored rows alone (no database). */

export const SYSTEM_PROMPT =
  "You are the tenant's assistant on a content platform. You can use the tools listed to read and " +
  "write the tenant's sites and articles and to act in the tenant's connected services. Use a tool " +
  'only when it helps; when a tool call is refused or fails, say so plainly and do not pretend it ran. ' +
  'Never invent ids: look them up with a tool first.'

/** The system prompt, with the tenant's own instructions after ours. */
export function systemPrompt(instructions: string | null | undefined): string {
  return instructions ? `${SYSTEM_PROMPT}\n\nThe tenant's instructions:\n${instructions}` : SYSTEM_PROMPT
}

/** The provider-safe name each tool goes by with the model: the MCP alias ([A-Za-z0-9_-]{1,64}). */
export function modelTools(tools: ToolEntry[]): ModelTool[] {
  return tools
    .filter((t) => !t.hidden)
    .map((t) => ({
      name: t.mcpName,
      description: t.description || t.name,
      inputSchema: { type: 'object', ...t.inputSchema },
    }))
}

/** A tool the model named, by its alias first, then by its own name. */
export function toolByName(tools: ToolEntry[], name: string): ToolEntry | undefined {
  return tools.find((t) => t.mcpName === name) ?? tools.find((t) => t.name === name)
}

/**
 * A bound on a model call's input tokens before it is made: a third of the request's UTF-8 bytes
 * (the system prompt, the history and the tools' schemas). Ordinary text takes about four bytes a
 * token and code or JSON about three, so this over-reserves, and the settlement returns the
 * difference (docs/tenants-and-usage.md says where it can fall short).
 */
export function inputTokenBound(request: {
  system: string
  history: HistoryItem[]
  tools: ModelTool[]
}): number {
  return Math.ceil(new TextEncoder().encode(JSON.stringify(request)).length / 3)
}

/** A tool result as the model sees it: JSON, cut to MAX_TOOL_RESULT_CHARS. */
export function boundResult(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')
  } catch {
    text = String(value)
  }
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated: the result had ${text.length} characters]`
}

/** The conversation as the model is shown it: messages with their tool calls and results. */
export function historyFrom(messages: MessageRow[], calls: ToolCallRow[]): HistoryItem[] {
  const history: HistoryItem[] = []
  for (const m of messages.slice(-HISTORY_MESSAGES)) {
    if (m.role === 'user') {
      history.push({ role: 'user', content: m.content })
      continue
    }
    const own = calls.filter((c) => c.message_id === m.id).sort((a, b) => a.position - b.position)
    history.push({
      role: 'assistant',
      content: m.content,
      toolCalls: own.map((c) => ({ id: c.provider_call_id, name: c.name, arguments: c.arguments })),
    })
    if (own.length > 0)
      history.push({
        role: 'tool',
        results: own.map((c) => ({
          id: c.provider_call_id,
          content: c.result ?? `Not run (${c.status})`,
          isError: c.status !== 'ok',
        })),
      })
  }
  // A provider refuses a history that opens with an assistant message (a cut at the window's edge).
  while (history.length > 0 && history[0]!.role !== 'user') history.shift()
  return history
}

export type ToolCallEnd = { status: ToolCallRow['status']; result: string }

/** A tool's outcome as it is stored and told to the model. */
export function toolOutcomeText(outcome: ToolOutcome): ToolCallEnd {
  switch (outcome.status) {
    case 'ok':
      return { status: 'ok', result: boundResult(outcome.result) }
    case 'refused':
      return {
        status: 'refused',
        result: boundResult(`Refused by the tenant's tool permissions: ${outcome.message}`),
      }
    case 'invalid':
      return { status: 'invalid', result: boundResult(`Invalid arguments: ${outcome.message}`) }
    default:
      return { status: 'failed', result: boundResult(`The tool failed: ${outcome.message}`) }
  }
}

export const TOOL_TIME_LIMIT = 'tool time limit'

/** A tool call that threw (or ran out of time) as it is stored; `unexpected` ones are logged. */
export function toolErrorText(err: unknown, timeoutMs: number): ToolCallEnd & { unexpected: boolean } {
  const timedOut = err instanceof Error && err.message === TOOL_TIME_LIMIT
  const result = timedOut
    ? `The tool did not answer within ${timeoutMs} ms`
    : err instanceof ServiceError
      ? boundResult(`The tool failed: ${err.message}`)
      : 'The tool failed with an internal error'
  return { status: 'failed', result, unexpected: !timedOut && !(err instanceof ServiceError) }
}

/** The body of `tool_call.started` and `tool_call.approval_required`. */
export function toolCallEventData(c: Pick<ToolCallRow, 'id' | 'name' | 'tool' | 'arguments'>) {
  return { id: c.id, name: c.name, tool: c.tool, arguments: c.arguments }
}

/** The turn as the API answers it and as the stream's last event. */
export function shapeTurnResult(
  turn: TurnRow,
  messages: MessageRow[],
  calls: ToolCallRow[],
  quota: { used: number; limit: number | null },
): TurnResult {
  const last = messages.at(-1)
  const presented = presentTurn(turn)
  return {
    turn: presented,
    message: last ? presentMessage(last, calls) : null,
    tool_calls: calls.map(presentToolCall),
    usage: presented.usage,
    quota,
  }
}
