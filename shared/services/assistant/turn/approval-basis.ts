import type { Queryable } from '@shared/infra/db.ts'
import { articleBoundTools } from '@shared/services/tools/platform-tools.ts'
import type { ToolCallRow, TurnRow } from '../records.ts'
import type { ToolCallEnd } from './shaping.ts'

/**
 * An approval is of the article as the approver could see it, not as it is when the approved call
 * runs: a contributor may edit it in between. A call that publishes or schedules an article
 * (articleBoundTools) records the article's revision when it begins to wait; when it is about to
 * run, a different revision refuses it. Every content edit saves a new revision (revision-store.ts),
 * so the revision id says "changed" where a timestamp from a coarse clock might not.
 */

type Turn = Pick<TurnRow, 'id' | 'tenant_id'>

/** Inside the transaction that pauses the turn: the waiting calls' articles, as they are now. */
export async function recordApprovalBasis(
  tx: Queryable,
  turn: Turn,
  waiting: Pick<ToolCallRow, 'id' | 'tool'>[],
): Promise<void> {
  const bound = waiting.filter((c) => articleBoundTools.includes(c.tool)).map((c) => c.id)
  if (bound.length === 0) return
  // An article_id that names no article records null: it still names none when the call runs
  // (and the tool answers not found), or the call is refused.
  await tx`
    update public.assistant_tool_calls c
    set approval_basis = jsonb_build_object('revision_id', (
      select a.revision_id from public.articles a
      where a.tenant_id = c.tenant_id and a.id::text = c.arguments ->> 'article_id'))
    where c.tenant_id = ${turn.tenant_id} and c.turn_id = ${turn.id} and c.id in ${tx(bound)}`
}

/** The approved calls whose article changed since they began to wait (by id). */
export async function changedSinceApprovalAsked(
  sql: Queryable,
  turn: Turn,
  approved: Pick<ToolCallRow, 'id'>[],
): Promise<Set<string>> {
  if (approved.length === 0) return new Set()
  const rows = await sql<{ id: string }[]>`
    select c.id from public.assistant_tool_calls c
    where c.tenant_id = ${turn.tenant_id} and c.id in ${sql(approved.map((c) => c.id))}
      and c.approval_basis is not null
      and (c.approval_basis ->> 'revision_id') is distinct from (
        select a.revision_id::text from public.articles a
        where a.tenant_id = c.tenant_id and a.id::text = c.arguments ->> 'article_id')`
  return new Set(rows.map((r) => r.id))
}

/** What the model is told (and the call stores) instead of running it. */
export const changedAfterApprovalAsked: ToolCallEnd = {
  status: 'refused',
  result:
    'Not run: the article changed after approval was asked (it was edited since), so the approval ' +
    'no longer covers it. Ask for approval again so the approver sees the article as it is now.',
}
