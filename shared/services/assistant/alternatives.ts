import type { Queryable } from '@shared/infra/db.ts'
import { type MessageRow, presentMessage, type ToolCallRow, type TurnRow } from './records.ts'
import type { AssistantAlternative } from './schema.ts'

/**
 * The earlier versions of exchanges. A regenerate supersedes the last turn and its answers and
 * answers the same user message again; an edit supersedes the user message too. Only the last
 * exchange can get a new version, so every alternative is one whole exchange: the user message it
 * answered and its answers, with their tool calls.
 */
export async function readAlternatives(
  db: Queryable,
  tenantId: string,
  conversationId: string,
  turns: TurnRow[],
  calls: ToolCallRow[],
): Promise<AssistantAlternative[]> {
  const superseded = turns.filter((t) => t.superseded_at !== null)
  if (superseded.length === 0) return []
  const messages = await db<MessageRow[]>`
    select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
    where tenant_id = ${tenantId} and conversation_id = ${conversationId}
      and (turn_id in ${db(superseded.map((t) => t.id))}
           or id in ${db(superseded.map((t) => t.user_message_id).filter((id): id is string => id !== null))})
    order by seq`
  return superseded.map((t) => ({
    exchange_id: t.exchange_id ?? t.id,
    version: t.version,
    turn_id: t.id,
    messages: messages
      .filter((m) => m.id === t.user_message_id || (m.turn_id === t.id && m.role === 'assistant'))
      .map((m) => presentMessage(m, calls)),
  }))
}
