import type { TurnResult } from '@shared/services/assistant/schema.ts'
import type { TurnEvent } from '@shared/services/assistant/turn/events.ts'

/**
 * A turn's events in the Vercel AI SDK's UI message stream protocol (v1), so that `useChat` from
 * `@ai-sdk/react` reads a turn as it reads its own server's answer. The same events, another
 * spelling: the message is the turn (its id is the turn id), text between tool calls is one text
 * part each, a tool call is a dynamic tool part (our tools are not known to the client at build
 * time) whose id is the call's id, and a call that waits is the protocol's approval request whose
 * approval id is that same id: the answer goes to POST …/approvals/{call_id}.
 */

export const AI_SDK_HEADERS = { 'x-vercel-ai-ui-message-stream': 'v1' } as const

export type UiChunk = Record<string, unknown> & { type: string }

const failedStatus = (status: string) => status === 'failed'

/** Translates one turn's events into chunks; one translator per stream (it remembers the open text part). */
export class AiSdkTranslator {
  private text: string | null = null
  private started = false
  private finished = new Set<unknown>()

  constructor(private turnId: string) {}

  /** The chunks for one event (often none or one; a `turn.ended` closes the message). */
  chunks(e: TurnEvent): UiChunk[] {
    const out: UiChunk[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'start', messageId: this.turnId })
    }
    const data = e.data as Record<string, unknown>
    switch (e.event) {
      case 'text.delta': {
        if (!this.text) {
          this.text = `text-${this.turnId}-${e.id ?? Date.now()}`
          out.push({ type: 'text-start', id: this.text })
        }
        out.push({ type: 'text-delta', id: this.text, delta: String(data.text ?? '') })
        break
      }
      case 'tool_call.started':
      case 'tool_call.approval_required':
        this.closeText(out)
        out.push({
          type: 'tool-input-available',
          toolCallId: data.id,
          toolName: data.tool,
          input: data.arguments ?? {},
          dynamic: true,
        })
        if (e.event === 'tool_call.approval_required')
          out.push({ type: 'tool-approval-request', approvalId: data.id, toolCallId: data.id })
        break
      case 'tool_call.completed':
        this.closeText(out)
        this.finished.add(data.id)
        out.push(toolOutcome(data))
        break
      case 'usage':
        this.closeText(out)
        break
      case 'turn.ended': {
        this.closeText(out)
        const { turn, tool_calls } = e.data as TurnResult
        // A denial is stored as the decision, not streamed as an event: the result says it.
        for (const call of tool_calls)
          if (call.status === 'denied' && !this.finished.has(call.id))
            out.push({ type: 'tool-output-denied', toolCallId: call.id })
        if (failedStatus(turn.status)) out.push({ type: 'error', errorText: turn.error ?? 'The turn failed' })
        out.push({
          type: 'finish',
          finishReason:
            turn.status === 'completed'
              ? 'stop'
              : turn.status === 'awaiting_approval'
                ? 'tool-calls'
                : 'other',
          messageMetadata: { turn_id: turn.id, status: turn.status },
        })
        break
      }
    }
    return out
  }

  private closeText(out: UiChunk[]) {
    if (!this.text) return
    out.push({ type: 'text-end', id: this.text })
    this.text = null
  }
}

/** A finished call: its output (JSON when it is JSON), denied, or an error with the reason. */
function toolOutcome(data: Record<string, unknown>): UiChunk {
  const result = typeof data.result === 'string' ? data.result : ''
  if (data.status === 'ok')
    return { type: 'tool-output-available', toolCallId: data.id, output: parsed(result) }
  if (data.status === 'denied') return { type: 'tool-output-denied', toolCallId: data.id }
  return { type: 'tool-output-error', toolCallId: data.id, errorText: `${data.status}: ${result}` }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
