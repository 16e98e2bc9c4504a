import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type Cursor, keysetPage, type Page } from '@shared/infra/pagination.ts'
import { readAlternatives } from './alternatives.ts'
import {
  type ConversationRow,
  type MessageRow,
  presentConversation,
  presentMessage,
  presentTurn,
  type ToolCallRow,
  type TurnRow,
} from './records.ts'
import type { Conversation, ConversationDetail, ConversationOrigin } from './schema.ts'

/**
 * Conversations under row-level security: a member sees the conversations they started, owners
 * and admins every conversation of the tenant (the policies of 20261127040000_assistant.sql).
 */

const DEFAULT_TITLE = 'New conversation'

/** `origin` automation: an automation's run (automation-dispatch.ts); never from a request body. */
export async function createConversation(
  ctx: ServiceContext,
  input: { title?: string; origin?: ConversationOrigin },
): Promise<Conversation> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const [row] = await ctx.asTenant(
    (tx) => tx<ConversationRow[]>`
      insert into public.assistant_conversations (tenant_id, title, title_source, origin, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${input.title ?? DEFAULT_TITLE}, ${input.title ? 'user' : 'default'},
              ${input.origin ?? 'chat'}, ${caller.userId}, ${now}, ${now})
      returning *`,
  )
  return presentConversation(row!)
}

/**
 * Newest first; with `q`, those whose title or a message matches it (full-text, under RLS); with
 * `origin`, only the conversations people started (chat) or automation runs started.
 */
export async function listConversations(
  ctx: ServiceContext,
  after: Cursor | null,
  limit: number,
  filter: { q?: string; origin?: ConversationOrigin } = {},
): Promise<Page<Conversation>> {
  const { q, origin } = filter
  const { caller } = ctx
  const query = q ? searchQuery(q) : null
  if (q && query === null) return { data: [], next_cursor: null }
  return keysetPage(
    { limit, after },
    { at: 'created_at', column: 'c.created_at', id: 'c.id' },
    presentConversation,
    (keyset) =>
      ctx.asTenant(
        (tx) => tx<ConversationRow[]>`
      select c.* from public.assistant_conversations c
      where c.tenant_id = ${caller.tenantId}
        ${origin ? tx`and c.origin = ${origin}` : tx``}
        ${
          !query
            ? tx``
            : tx`and (c.search @@ to_tsquery('simple', ${query})
                      or exists (select 1 from public.assistant_messages m
                                 where m.tenant_id = c.tenant_id and m.conversation_id = c.id
                                   and m.search @@ to_tsquery('simple', ${query})))`
        }
        ${keyset(tx)}`,
      ),
  )
}

/**
 * A search box's words as a tsquery: every word must match, the last one as a prefix (results
 * while typing). Only letters and digits reach to_tsquery, so no input is a syntax error there.
 */
function searchQuery(q: string): string | null {
  const words =
    q
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 16) ?? []
  if (words.length === 0) return null
  return words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(' & ')
}

/** The conversation as the caller may see it, with its messages, tool calls and turns. */
export async function getConversation(ctx: ServiceContext, id: string): Promise<ConversationDetail> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const [row] = await tx<ConversationRow[]>`
      select * from public.assistant_conversations where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!row) throw notFound('Conversation')
    const { messages, calls, turns } = await conversationRecords(tx, caller.tenantId, id)
    return {
      ...presentConversation(row),
      messages: messages.map((m) => presentMessage(m, calls)),
      turns: turns.map(presentTurn),
      alternatives: await readAlternatives(tx, caller.tenantId, id, turns, calls),
    }
  })
}

/**
 * Messages, tool calls and turns of one conversation, oldest first (at most the last 500
 * messages): the messages of the newest version of each exchange, as the model and the default
 * view see them (earlier versions: alternatives.ts).
 */
export async function conversationRecords(db: Queryable, tenantId: string, conversationId: string) {
  const messages = await db<MessageRow[]>`
    select * from (
      select id, conversation_id, turn_id, role, content, created_at, seq from public.assistant_messages
      where tenant_id = ${tenantId} and conversation_id = ${conversationId} and superseded_at is null
      order by seq desc limit 500
    ) m order by seq`
  // A call that names an article carries its title, so a card reads "Spring menu is here", not an
  // id (under RLS when read as the tenant: an article the reader cannot see stays unnamed).
  const calls = await db<ToolCallRow[]>`
    select c.*, c.arguments ->> 'article_id' as article_ref, a.title as article_title
    from public.assistant_tool_calls c
    left join public.articles a
      on a.tenant_id = c.tenant_id and a.id::text = c.arguments ->> 'article_id'
    where c.tenant_id = ${tenantId} and c.conversation_id = ${conversationId}
    order by c.created_at, c.position`
  const turns = await db<TurnRow[]>`
    select * from public.assistant_turns
    where tenant_id = ${tenantId} and conversation_id = ${conversationId}
    order by created_at, version, id`
  return { messages, calls, turns }
}

/** A new title, set by a person: no automatic title replaces it. */
export async function renameConversation(
  ctx: ServiceContext,
  id: string,
  title: string,
): Promise<Conversation> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<ConversationRow[]>`
      update public.assistant_conversations
      set title = ${title}, title_source = 'user', updated_at = ${ctx.clock.now()}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning *`,
  )
  if (!row) throw notFound('Conversation')
  return presentConversation(row)
}

export async function deleteConversation(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const rows = await ctx.asTenant(
    (tx) => tx`
      delete from public.assistant_conversations where id = ${id} and tenant_id = ${caller.tenantId}
      returning id`,
  )
  if (rows.length === 0) throw notFound('Conversation')
}
