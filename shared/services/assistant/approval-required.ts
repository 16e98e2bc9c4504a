import type { FunctionDeps } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import type { ToolCallRow, TurnRow } from './conversations.ts'

/**
 * A turn starts waiting for approval: its status and the tenant's assistant.approval_required
 * event (the calls that wait) commit together, once, when the turn moves from running.
 */
export async function awaitApproval(
  deps: FunctionDeps,
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
    return true
  })
  if (recorded) deps.onOutboxCommitted?.()
}
