import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { enqueueJob, type JobRow } from '@shared/infra/jobs/engine.ts'
import { periodOf, productIds } from '@shared/services/usage/metering.ts'
import type { MessageRow, ToolCallRow, TurnRow } from '../records.ts'
import { TURN_JOB_KIND } from './limits.ts'

/**
 * A turn's stored state, the request side: starting a turn, deciding an approval, reading the
 * result. It acts as the caller: reads as the tenant under RLS, writes through the owner handle of
 * the caller's context (the tables are SELECT-only for API roles). The job side, which runs for no
 * signed-in caller, is job-store.ts.
 */

/** NOT_FOUND unless the caller may see the conversation. */
export async function assertConversationVisible(ctx: ServiceContext, conversationId: string): Promise<void> {
  const rows = await ctx.asTenant(
    (tx) => tx<{ title: string }[]>`
      select title from public.assistant_conversations where id = ${conversationId} and tenant_id = ${ctx.caller.tenantId}`,
  )
  if (!rows[0]) throw notFound('Conversation')
}

export interface NewTurn {
  conversationId: string
  content: string
  triggeredBy: TurnRow['triggered_by']
  provider: TurnRow['provider']
  model: string
  environment: TurnRow['credential_environment']
  scopes: string[]
  now: Date
  /** A new version of the conversation's last exchange (regenerate, edit): branch.ts. */
  replaces?: Replaced
}

/**
 * The exchange a regenerate or an edit gives a new version: its last turn, superseded with its
 * answers (and, for an edit, its user message) in the same transaction that starts the new one.
 * `keepsUserMessage`: a regenerate answers the same user message again.
 */
export interface Replaced {
  turn: Pick<TurnRow, 'id' | 'exchange_id' | 'version' | 'user_message_id'>
  keepsUserMessage: boolean
}

/** The user message, the turn and its job, in one transaction. */
export function insertTurn(
  ctx: ServiceContext,
  t: NewTurn,
): Promise<{ turn: TurnRow; job: JobRow; userMessage: MessageRow }> {
  const { caller } = ctx
  const { conversationId, now } = t
  return ctx.asOwner.begin(async (tx) => {
    if (t.replaces) await supersede(tx, caller.tenantId, conversationId, t.replaces, now)
    const [turn] = await tx<TurnRow[]>`
      insert into public.assistant_turns
        (tenant_id, conversation_id, status, triggered_by, provider, model, credential_environment, scopes,
         created_by, created_at, updated_at, exchange_id, version)
      values (${caller.tenantId}, ${conversationId}, 'running', ${t.triggeredBy}, ${t.provider},
              ${t.model}, ${t.environment}, ${t.scopes}, ${caller.userId}, ${now}, ${now},
              ${t.replaces?.turn.exchange_id ?? null}, ${(t.replaces?.turn.version ?? 0) + 1})
      returning *`
    const [userMessage] = t.replaces?.keepsUserMessage
      ? await tx<MessageRow[]>`
          select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
          where id = ${t.replaces.turn.user_message_id} and tenant_id = ${caller.tenantId}`
      : await tx<MessageRow[]>`
          insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content, created_at)
          values (${caller.tenantId}, ${conversationId}, ${turn!.id}, 'user', ${t.content}, ${now})
          returning id, conversation_id, turn_id, role, content, created_at`
    await tx`
      update public.assistant_turns
      set exchange_id = coalesce(exchange_id, id), user_message_id = ${userMessage!.id}
      where id = ${turn!.id}`
    const job = await enqueueJob(tx, {
      tenantId: caller.tenantId,
      kind: TURN_JOB_KIND,
      input: { turn_id: turn!.id, conversation_id: conversationId },
      maxAttempts: 2,
      now,
    })
    // A turn someone typed is their job (queued through the owner handle, it would name no creator
    // and read as scheduled); an automation's turn stays the schedule's.
    if (t.triggeredBy === 'assistant') {
      await tx`update public.jobs set created_by = ${caller.userId} where id = ${job.id}`
      job.created_by = caller.userId
    }
    await tx`update public.assistant_turns set job_id = ${job.id} where id = ${turn!.id}`
    // The first message names a conversation that has no title of its own (the model may name it
    // better once the first exchange ends: title.ts).
    const title = t.content.trim().replace(/\s+/g, ' ').slice(0, 80)
    await tx`
      update public.assistant_conversations
      set last_message_at = ${now}, updated_at = ${now},
          title = case when title_source = 'default' then ${title} else title end,
          title_source = case when title_source = 'default' then 'rule' else title_source end
      where id = ${conversationId} and tenant_id = ${caller.tenantId}`
    const started = {
      ...turn!,
      job_id: job.id,
      exchange_id: turn!.exchange_id ?? turn!.id,
      user_message_id: userMessage!.id,
    }
    return { turn: started, job, userMessage: userMessage! }
  })
}

/**
 * Supersedes the exchange's last version. It must still be the conversation's newest turn and
 * have ended (an open turn's conflict is the unique index's, when the new turn is inserted).
 */
async function supersede(tx: Queryable, tenantId: string, conversationId: string, r: Replaced, now: Date) {
  const [moved] = await tx`
    update public.assistant_turns t set superseded_at = ${now}
    where t.id = ${r.turn.id} and t.tenant_id = ${tenantId} and t.superseded_at is null
      and t.status not in ('running', 'awaiting_approval')
      and not exists (select 1 from public.assistant_messages later, public.assistant_messages own
                      where own.id = t.user_message_id and own.tenant_id = t.tenant_id
                        and later.tenant_id = t.tenant_id and later.conversation_id = ${conversationId}
                        and later.role = 'user' and later.superseded_at is null and later.seq > own.seq)
    returning t.id`
  if (!moved)
    throw new ServiceError('CONFLICT', 'The conversation changed meanwhile: reload it and try again')
  await tx`
    update public.assistant_messages set superseded_at = ${now}
    where tenant_id = ${tenantId} and conversation_id = ${conversationId}
      and ((turn_id = ${r.turn.id} and role = 'assistant')
           or (${!r.keepsUserMessage} and id = ${r.turn.user_message_id}))`
}

/** A tool call's status as the caller sees it (undefined: not theirs to see). */
export async function visibleToolCall(
  ctx: ServiceContext,
  conversationId: string,
  callId: string,
): Promise<{ turn_id: string; status: string; tool: string } | undefined> {
  const [visible] = await ctx.asTenant(
    (tx) => tx<{ turn_id: string; status: string; tool: string }[]>`
      select turn_id, status, tool from public.assistant_tool_calls
      where id = ${callId} and conversation_id = ${conversationId} and tenant_id = ${ctx.caller.tenantId}`,
  )
  return visible
}

/**
 * Records the decision; when no call of the turn waits any more, the turn runs again (as its
 * creator, from what was stored) under a new job the approver queued. `decided` is false when the
 * call was not waiting.
 */
export function storeDecision(
  ctx: ServiceContext,
  conversationId: string,
  callId: string,
  approve: boolean,
  result: string | null,
  now: Date,
  change: { publishAt?: string } = {},
): Promise<
  { decided: false; expiredAt: Date | null } | { decided: true; turnId: string; job: JobRow | null }
> {
  const { caller } = ctx
  return ctx.asOwner.begin(async (tx) => {
    // The expiry is checked here, in the statement that decides, not left to the sweep: a call
    // past expires_at that the sweep has not reached yet is as expired as one it has settled.
    const [decided] = await tx<{ turn_id: string }[]>`
      update public.assistant_tool_calls
      set status = ${approve ? 'approved' : 'denied'}, decision = ${approve ? 'approved' : 'denied'},
          decided_by = ${caller.userId}, decided_at = ${now},
          result = ${result}, finished_at = ${approve ? null : now}
          ${change.publishAt ? tx`, arguments = jsonb_set(arguments, '{publish_at}', to_jsonb(${change.publishAt}::text))` : tx``}
      where id = ${callId} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval'
        and (expires_at is null or expires_at > ${now})
      returning turn_id`
    if (!decided) {
      const [expired] = await tx<{ expires_at: Date }[]>`
        select expires_at from public.assistant_tool_calls
        where id = ${callId} and tenant_id = ${caller.tenantId}
          and (decision = 'expired' or (status = 'awaiting_approval' and expires_at <= ${now}))`
      return { decided: false as const, expiredAt: expired?.expires_at ?? null }
    }
    const [waiting] = await tx`
      select 1 from public.assistant_tool_calls
      where turn_id = ${decided.turn_id} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval' limit 1`
    if (waiting) return { decided: true as const, turnId: decided.turn_id, job: null }
    const [turn] = await tx<TurnRow[]>`
      update public.assistant_turns set status = 'running', updated_at = ${now}
      where id = ${decided.turn_id} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval'
      returning *`
    if (!turn) return { decided: true as const, turnId: decided.turn_id, job: null }
    const job = await enqueueJob(tx, {
      tenantId: caller.tenantId,
      kind: TURN_JOB_KIND,
      input: { turn_id: turn.id, conversation_id: conversationId, resumed: true },
      maxAttempts: 2,
      now,
    })
    // Resumed by the approver's decision: theirs, like a typed turn.
    await tx`update public.jobs set created_by = ${caller.userId} where id = ${job.id}`
    await tx`update public.assistant_turns set job_id = ${job.id} where id = ${turn.id}`
    return { decided: true as const, turnId: turn.id, job }
  })
}

async function quotaState(
  db: Queryable,
  tenantId: string,
  now: Date,
): Promise<{ used: number; limit: number | null }> {
  const [row] = await db<{ used: string | null; quota: string | null }[]>`
    select (select units from public.usage_counters
            where tenant_id = t.id and product_id = ${productIds.assistant} and period = ${periodOf(now)}) as used,
           q.monthly_quota as quota
    from public.tenants t
    join public.plan_quotas q on q.plan = t.plan and q.product_id = ${productIds.assistant}
    where t.id = ${tenantId}`
  return { used: Number(row?.used ?? 0), limit: row?.quota == null ? null : Number(row.quota) }
}

export async function selectTurn(db: Queryable, turnId: string): Promise<TurnRow | undefined> {
  const [turn] = await db<TurnRow[]>`select * from public.assistant_turns where id = ${turnId}`
  return turn
}

/**
 * What the turn result is made of. As the caller: turns, messages, tool calls, counters and
 * quotas are all visible to members under RLS.
 */
export function readTurnResult(ctx: ServiceContext, turnId: string) {
  return ctx.asTenant((tx) => turnRecords(tx, ctx.caller.tenantId, turnId, ctx.clock.now()))
}

/** The turn result's records on either side: as the caller (RLS), or the job's pool by tenant_id. */
export async function turnRecords(db: Queryable, tenantId: string, turnId: string, now: Date) {
  const turn = await selectTurn(db, turnId)
  if (!turn || turn.tenant_id !== tenantId) throw notFound('Turn')
  const messages = await db<MessageRow[]>`
    select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
    where tenant_id = ${tenantId} and turn_id = ${turnId} and role = 'assistant' order by seq`
  const calls = await db<ToolCallRow[]>`
    select * from public.assistant_tool_calls where tenant_id = ${tenantId} and turn_id = ${turnId}
    order by created_at, position`
  return { turn, messages, calls, quota: await quotaState(db, tenantId, now) }
}
