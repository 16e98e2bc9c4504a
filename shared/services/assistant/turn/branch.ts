import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import type { MessageRow, TurnRow } from '../records.ts'
import { type StartedTurn, type StartTurnOptions, startTurn } from './start.ts'

/**
 * Regenerate and edit: a new version of the conversation's last exchange, run as a turn like any
 * other. The version it replaces is kept (superseded) and shown as an alternative; only the newest
 * version is in the conversation and in the model's history.
 */

type Options = Omit<StartTurnOptions, 'replaces'>

/** Answers the last user message again. */
export async function regenerateLast(
  ctx: ServiceContext,
  conversationId: string,
  opts: Options,
): Promise<StartedTurn> {
  const last = await lastExchange(ctx, conversationId)
  if (!last) throw new ServiceError('CONFLICT', 'The conversation has no answer to regenerate yet')
  assertEnded(last.turn)
  return startTurn(ctx, conversationId, last.message.content, {
    ...opts,
    replaces: { turn: last.turn, keepsUserMessage: true },
  })
}

/** Replaces the last user message with `content` and answers it. */
export async function editLastMessage(
  ctx: ServiceContext,
  conversationId: string,
  messageId: string,
  content: string,
  opts: Options,
): Promise<StartedTurn> {
  const last = await lastExchange(ctx, conversationId)
  if (last?.message.id !== messageId) {
    const [message] = await ctx.asTenant(
      (tx) => tx<{ id: string }[]>`
        select id from public.assistant_messages
        where id = ${messageId} and conversation_id = ${conversationId} and tenant_id = ${ctx.caller.tenantId}`,
    )
    if (!message) throw notFound('Message')
    throw new ServiceError('CONFLICT', 'Only the last user message of the conversation can be edited')
  }
  assertEnded(last.turn)
  return startTurn(ctx, conversationId, content, {
    ...opts,
    replaces: { turn: last.turn, keepsUserMessage: false },
  })
}

function assertEnded(turn: TurnRow) {
  if (turn.status === 'running' || turn.status === 'awaiting_approval')
    throw new ServiceError(
      'CONFLICT',
      'A turn is already running in this conversation (or waits for approval): wait for it to end',
    )
}

/** The newest version of the last exchange, as the caller may see it (404: not theirs). */
async function lastExchange(
  ctx: ServiceContext,
  conversationId: string,
): Promise<{ turn: TurnRow; message: MessageRow } | null> {
  const tenantId = ctx.caller.tenantId
  return ctx.asTenant(async (tx) => {
    const [conversation] = await tx`
      select 1 from public.assistant_conversations where id = ${conversationId} and tenant_id = ${tenantId}`
    if (!conversation) throw notFound('Conversation')
    const [message] = await tx<MessageRow[]>`
      select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
      where tenant_id = ${tenantId} and conversation_id = ${conversationId} and role = 'user'
        and superseded_at is null
      order by seq desc limit 1`
    if (!message) return null
    const [turn] = await tx<TurnRow[]>`
      select * from public.assistant_turns
      where tenant_id = ${tenantId} and conversation_id = ${conversationId}
        and user_message_id = ${message.id} and superseded_at is null
      order by version desc limit 1`
    return turn ? { turn, message } : null
  })
}
