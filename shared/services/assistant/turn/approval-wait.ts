import type { Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { tenantAdminEmails } from '@shared/infra/notifier.ts'
import type { ToolCallRow, TurnRow } from '../records.ts'

/** How long a call waits for approval unless the tenant set approval_ttl_hours. */
export const DEFAULT_APPROVAL_TTL_HOURS = 24

/**
 * Inside the transaction that pauses the turn: each waiting call gets its expiry (the tenant's
 * approval_ttl_hours from now), and every owner and admin with an e-mail address is told once per
 * call (the notifier's dedupe key), so a retried pause sends nothing twice.
 */
export async function markApprovalsWaiting(
  tx: Queryable,
  deps: Pick<FunctionDeps, 'notifier'>,
  turn: Pick<TurnRow, 'id' | 'tenant_id' | 'conversation_id' | 'triggered_by'>,
  waiting: Pick<ToolCallRow, 'id' | 'tool'>[],
  now: Date,
): Promise<void> {
  const [expiry] = await tx<{ expires_at: Date }[]>`
    select ${now}::timestamptz + make_interval(hours => coalesce(
      (select approval_ttl_hours from public.assistant_settings where tenant_id = ${turn.tenant_id}),
      ${DEFAULT_APPROVAL_TTL_HOURS})) as expires_at`
  const expiresAt = expiry!.expires_at
  await tx`
    update public.assistant_tool_calls set expires_at = ${expiresAt}
    where tenant_id = ${turn.tenant_id} and turn_id = ${turn.id} and status = 'awaiting_approval'
      and expires_at is null`
  const recipients = await tenantAdminEmails(tx, turn.tenant_id)
  const asker = turn.triggered_by === 'automation' ? 'An automation' : 'A conversation'
  for (const call of waiting)
    for (const recipient of recipients)
      await deps.notifier.enqueue(tx, {
        tenantId: turn.tenant_id,
        kind: 'assistant.approval_required',
        recipient,
        subject: `The assistant waits for your approval: ${call.tool}`.slice(0, 200),
        body:
          `${asker} asked the assistant to run ${call.tool}, which needs an owner's or admin's approval.\n` +
          `Approve or deny it in the dashboard's Approvals page (or POST /v1/assistant/approvals/${call.id}) ` +
          `before ${expiresAt.toISOString()}; after that it counts as denied.`,
        dedupeKey: `assistant-approval:${call.id}:${recipient}`,
      })
}
