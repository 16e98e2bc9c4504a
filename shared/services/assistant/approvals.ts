import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { enqueueJob } from '@shared/infra/jobs/engine.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { Approval, ApprovalStatus } from './approval-schema.ts'
import { decideApproval, TURN_JOB_KIND } from './turn/index.ts'

/**
 * The approvals inbox: every tool call that waited for approval, across conversations and
 * automations. Read as the tenant under RLS, so a member sees the calls of their own conversations
 * and owners and admins see all of them (the conversations' rule). A call that nobody decides
 * before expires_at is settled by the sweep as expired, and its turn goes on as if denied.
 */

/** Calls expired by one sweep at most. */
const EXPIRE_LIMIT = 100

const EXPIRED_RESULT =
  'The approval expired: nobody approved the call in time, so it was not run. Do not retry this call.'

interface ApprovalRow {
  id: string
  tool: string
  arguments: Record<string, unknown>
  status: string
  decision: 'approved' | 'denied' | 'expired' | null
  result: string | null
  conversation_id: string
  conversation_title: string
  turn_id: string
  triggered_by: 'assistant' | 'automation'
  automation_id: string | null
  automation_name: string | null
  requested_by: string | null
  created_at: Date
  expires_at: Date
  decided_by: string | null
  decided_at: Date | null
  article_ref: string | null
  article_title: string | null
}

const present = (r: ApprovalRow): Approval => ({
  id: r.id,
  status: r.decision ?? 'pending',
  tool: r.tool,
  arguments: r.arguments,
  conversation_id: r.conversation_id,
  conversation_title: r.conversation_title,
  turn_id: r.turn_id,
  triggered_by: r.triggered_by,
  automation: r.automation_id ? { id: r.automation_id, name: r.automation_name ?? '' } : null,
  requested_by: r.requested_by,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at.toISOString(),
  decided_by: r.decided_by,
  decided_at: r.decided_at?.toISOString() ?? null,
  reason: r.decision === 'denied' || r.decision === 'expired' ? r.result : null,
  ...(r.article_ref && { article: r.article_title ? { id: r.article_ref, title: r.article_title } : null }),
})

export function listApprovals(
  ctx: ServiceContext,
  status: ApprovalStatus,
  page: PageRequest,
): Promise<Page<Approval>> {
  const tenantId = ctx.caller.tenantId
  return keysetPage<ApprovalRow, Approval>(
    page,
    { at: 'created_at', column: 'c.created_at', id: 'c.id' },
    present,
    (tail) =>
      ctx.asTenant(
        (tx) => tx<ApprovalRow[]>`
        select c.id, c.tool, c.arguments, c.status, c.decision, c.result, c.conversation_id, c.turn_id,
               v.title as conversation_title, t.triggered_by, t.created_by as requested_by,
               r.automation_id, a.name as automation_name,
               c.created_at, c.expires_at, c.decided_by, c.decided_at,
               c.arguments ->> 'article_id' as article_ref, ar.title as article_title
        from public.assistant_tool_calls c
        join public.assistant_conversations v on v.id = c.conversation_id
        join public.assistant_turns t on t.id = c.turn_id
        left join public.assistant_automation_runs r on r.turn_id = c.turn_id and r.tenant_id = c.tenant_id
        left join public.assistant_automations a on a.id = r.automation_id
        left join public.articles ar on ar.tenant_id = c.tenant_id and ar.id::text = c.arguments ->> 'article_id'
        where c.tenant_id = ${tenantId} and c.expires_at is not null
          and ${status === 'pending' ? tx`c.status = 'awaiting_approval'` : tx`c.decision = ${status}`}
        ${tail(tx)}`,
      ),
  )
}

/** Decides a waiting call by its id alone (the inbox does not need its conversation). */
export async function decideApprovalById(
  ctx: ServiceContext,
  callId: string,
  decision: { approve: boolean; reason?: string; publish_at?: string },
) {
  const [call] = await ctx.asTenant(
    (tx) => tx<{ conversation_id: string }[]>`
      select conversation_id from public.assistant_tool_calls
      where id = ${callId} and tenant_id = ${ctx.caller.tenantId} and expires_at is not null`,
  )
  if (!call) throw notFound('Approval')
  return decideApproval(ctx, call.conversation_id, callId, decision)
}

/**
 * The sweep's part: calls past their expiry are denied as expired, and a turn with no call left
 * waiting is queued to run on (the engine's run in the same sweep picks it up). One transaction;
 * each call moves from awaiting_approval once, so concurrent sweeps expire each call once and
 * queue each turn once.
 */
export async function expireApprovals(deps: Pick<FunctionDeps, 'sql' | 'clock'>): Promise<number> {
  const now = deps.clock.now()
  return deps.sql.begin(async (tx) => {
    const expired = await tx<{ tenant_id: string; turn_id: string; conversation_id: string }[]>`
      update public.assistant_tool_calls c
      set status = 'denied', decision = 'expired', decided_at = ${now}, finished_at = ${now},
          result = ${EXPIRED_RESULT}
      where c.id in (
        select id from public.assistant_tool_calls
        where status = 'awaiting_approval' and expires_at <= ${now}
        order by expires_at limit ${EXPIRE_LIMIT}
        for update skip locked)
      returning c.tenant_id, c.turn_id, c.conversation_id`
    const turns = new Map(expired.map((c) => [c.turn_id, c]))
    for (const call of turns.values()) {
      const [turn] = await tx<{ id: string }[]>`
        update public.assistant_turns set status = 'running', updated_at = ${now}
        where id = ${call.turn_id} and tenant_id = ${call.tenant_id} and status = 'awaiting_approval'
          and not exists (select 1 from public.assistant_tool_calls
                          where turn_id = ${call.turn_id} and status = 'awaiting_approval')
        returning id`
      if (!turn) continue
      const job = await enqueueJob(tx, {
        tenantId: call.tenant_id,
        kind: TURN_JOB_KIND,
        input: { turn_id: turn.id, conversation_id: call.conversation_id, resumed: true },
        maxAttempts: 2,
        now,
      })
      await tx`update public.assistant_turns set job_id = ${job.id} where id = ${turn.id}`
    }
    return expired.length
  })
}
