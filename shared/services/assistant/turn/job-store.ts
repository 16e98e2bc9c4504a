import type { FunctionDeps } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { conversationRecords } from '../conversations.ts'
import type { ToolCallRequest } from '../model.ts'
import type { MessageRow, ToolCallRow, TurnRow } from '../records.ts'
import { recordApprovalBasis } from './approval-basis.ts'
import { markApprovalsWaiting } from './approval-wait.ts'
import type { ToolCallEnd } from './shaping.ts'
import { selectTurn } from './store.ts'

/**
 * A turn's stored state, the job side (the step loop): it runs for no signed-in caller, through the
 * owner pool of FunctionDeps, every statement scoped by the turn's tenant_id. The request side,
 * as the caller, is store.ts.
 */

type JobDeps = Pick<FunctionDeps, 'sql' | 'clock' | 'onOutboxCommitted' | 'notifier'>

/** The turn by id, before its tenant is known (the job names only the turn). */
export function loadTurn(deps: JobDeps, turnId: string): Promise<TurnRow | undefined> {
  return selectTurn(deps.sql, turnId)
}

/** Ends a running turn (awaiting approval is a pause, not an end: no finished_at). */
export async function finishTurn(
  deps: JobDeps,
  turn: TurnRow,
  status: 'completed' | 'failed' | 'stopped' | 'awaiting_approval',
  error: string | null,
): Promise<void> {
  const now = deps.clock.now()
  await deps.sql`
    update public.assistant_turns
    set status = ${status}, error = ${error}, updated_at = ${now},
        finished_at = ${status === 'awaiting_approval' ? null : now}
    where id = ${turn.id} and tenant_id = ${turn.tenant_id} and status = 'running'`
}

/**
 * A call that was running when an instance died is not run again (it may have written): it is
 * marked interrupted, and the model is told so.
 */
export async function markInterrupted(deps: JobDeps, turn: TurnRow): Promise<void> {
  await deps.sql`
    update public.assistant_tool_calls
    set status = 'interrupted', finished_at = ${deps.clock.now()},
        result = 'The call was interrupted (the server stopped); it may or may not have taken effect'
    where tenant_id = ${turn.tenant_id} and turn_id = ${turn.id} and status = 'running'`
}

/** The calls approved while the turn waited, moved to running. */
export function takeApproved(deps: JobDeps, turn: TurnRow): Promise<ToolCallRow[]> {
  return deps.sql<ToolCallRow[]>`
    update public.assistant_tool_calls set status = 'running'
    where tenant_id = ${turn.tenant_id} and turn_id = ${turn.id} and status = 'approved'
    returning *`
}

/** The conversation's messages and tool calls, for the history. */
export function readConversation(deps: JobDeps, turn: TurnRow) {
  return conversationRecords(deps.sql, turn.tenant_id, turn.conversation_id)
}

export async function readInstructions(deps: JobDeps, tenantId: string): Promise<string | null> {
  const [row] = await deps.sql<{ instructions: string | null }[]>`
    select instructions from public.assistant_settings where tenant_id = ${tenantId}`
  return row?.instructions ?? null
}

/** Tool permissions that require approval, as '<connection_id>|<tool_name>'. */
export async function approvalRequired(deps: JobDeps, tenantId: string): Promise<Set<string>> {
  const rows = await deps.sql<{ connection_id: string; tool_name: string }[]>`
    select connection_id, tool_name from public.integration_tool_permissions
    where tenant_id = ${tenantId} and requires_approval and allowed`
  return new Set(rows.map((r) => `${r.connection_id}|${r.tool_name}`))
}

export interface StoredAnswer {
  steps: number
  turnTokens: { input: number; output: number }
  answer: { text: string; inputTokens: number; outputTokens: number }
  /** The calls the model asked for, each with its tool's name and whether it waits for approval. */
  calls: { request: ToolCallRequest; tool: string; waits: boolean }[]
}

/**
 * One model call's outcome in one transaction: the turn's and the conversation's counters, the
 * assistant message, and its tool calls (running, or awaiting approval).
 */
export function storeAnswer(deps: JobDeps, turn: TurnRow, s: StoredAnswer): Promise<ToolCallRow[]> {
  const now = () => deps.clock.now()
  const { answer } = s
  return deps.sql.begin(async (tx) => {
    await tx`
      update public.assistant_turns
      set steps = ${s.steps}, input_tokens = ${s.turnTokens.input}, output_tokens = ${s.turnTokens.output},
          updated_at = ${now()}
      where id = ${turn.id}`
    await tx`
      update public.assistant_conversations
      set input_tokens = input_tokens + ${answer.inputTokens}, output_tokens = output_tokens + ${answer.outputTokens},
          last_message_at = ${now()}, updated_at = ${now()}
      where id = ${turn.conversation_id} and tenant_id = ${turn.tenant_id}`
    const [message] = await tx<MessageRow[]>`
      insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content, created_at)
      values (${turn.tenant_id}, ${turn.conversation_id}, ${turn.id}, 'assistant', ${answer.text}, ${now()})
      returning id, conversation_id, turn_id, role, content, created_at`
    const rows: ToolCallRow[] = []
    for (const [position, c] of s.calls.entries()) {
      const [row] = await tx<ToolCallRow[]>`
        insert into public.assistant_tool_calls
          (tenant_id, conversation_id, turn_id, message_id, position, provider_call_id, name, tool, arguments,
           status, created_at)
        values (${turn.tenant_id}, ${turn.conversation_id}, ${turn.id}, ${message!.id}, ${position},
                ${c.request.id.slice(0, 200) || `call_${position}`}, ${c.request.name.slice(0, 200) || 'unnamed'},
                ${c.tool.slice(0, 200) || 'unnamed'}, ${tx.json(c.request.arguments as never)},
                ${c.waits ? 'awaiting_approval' : 'running'}, ${now()})
        returning *`
      rows.push(row!)
    }
    return rows
  })
}

/** A tool call's outcome, stored as it ends. */
export async function storeToolCallEnd(
  deps: JobDeps,
  turn: TurnRow,
  call: ToolCallRow,
  end: ToolCallEnd,
): Promise<void> {
  await deps.sql`
    update public.assistant_tool_calls set status = ${end.status}, result = ${end.result}, finished_at = ${deps.clock.now()}
    where id = ${call.id} and tenant_id = ${turn.tenant_id}`
}

/**
 * A turn starts waiting for approval: its status and the tenant's assistant.approval_required
 * event (the calls that wait) commit together, once, when the turn moves from running.
 */
export async function awaitApproval(
  deps: JobDeps,
  turn: Pick<TurnRow, 'id' | 'tenant_id' | 'conversation_id' | 'triggered_by'>,
  calls: Pick<ToolCallRow, 'id' | 'tool' | 'status'>[],
  now: Date,
): Promise<void> {
  const waiting = calls.filter((c) => c.status === 'awaiting_approval')
  const recorded = await deps.sql.begin(async (tx) => {
    const [moved] = await tx`
      update public.assistant_turns set status = 'awaiting_approval', updated_at = ${now}
      where id = ${turn.id} and status = 'running'
      returning id`
    if (!moved || waiting.length === 0) return false
    await recordEvent(tx, {
      tenantId: turn.tenant_id,
      type: 'assistant.approval_required',
      at: now,
      data: {
        turn_id: turn.id,
        conversation_id: turn.conversation_id,
        triggered_by: turn.triggered_by,
        tool_calls: waiting.map((c) => ({ tool_call_id: c.id, tool: c.tool })),
      },
    })
    await recordApprovalBasis(tx, turn, waiting)
    await markApprovalsWaiting(tx, deps, turn, waiting, now)
    return true
  })
  if (recorded) deps.onOutboxCommitted?.()
}
