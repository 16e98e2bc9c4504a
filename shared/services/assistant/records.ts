import type { AssistantMessage, AssistantToolCall, AssistantTurn, Conversation } from './schema.ts'

/**
 * The stored rows of conversations, turns, messages and tool calls, and how the API presents each:
 * shared by the conversation reads, their alternatives and the turn, none of which imports another
 * for them.
 */

export interface ConversationRow {
  id: string
  tenant_id: string
  title: string
  title_source: Conversation['title_source']
  origin: Conversation['origin']
  created_by: string | null
  input_tokens: string
  output_tokens: string
  last_message_at: Date | null
  created_at: Date
  updated_at: Date
}

export interface TurnRow {
  id: string
  tenant_id: string
  conversation_id: string
  status: AssistantTurn['status']
  triggered_by: AssistantTurn['triggered_by']
  provider: AssistantTurn['provider']
  model: string
  credential_environment: 'development' | 'staging' | 'production'
  scopes: string[]
  job_id: string | null
  steps: number
  input_tokens: string
  output_tokens: string
  error: string | null
  created_by: string | null
  created_at: Date
  updated_at: Date
  finished_at: Date | null
  cancel_requested_at: Date | null
  exchange_id: string | null
  version: number
  user_message_id: string | null
  superseded_at: Date | null
}

export interface MessageRow {
  id: string
  conversation_id: string
  turn_id: string | null
  role: 'user' | 'assistant'
  content: string
  created_at: Date
}

export interface ToolCallRow {
  id: string
  conversation_id: string
  turn_id: string
  message_id: string
  position: number
  provider_call_id: string
  name: string
  tool: string
  arguments: Record<string, unknown>
  status: AssistantToolCall['status']
  result: string | null
  decided_by: string | null
  created_at: Date
  finished_at: Date | null
  /** Read along with the call when it has an article_id (conversationRecords). */
  article_ref?: string | null
  article_title?: string | null
}

export function presentConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    title_source: row.title_source,
    origin: row.origin,
    created_by: row.created_by,
    usage: { input_tokens: Number(row.input_tokens), output_tokens: Number(row.output_tokens) },
    last_message_at: row.last_message_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

export function presentTurn(row: TurnRow): AssistantTurn {
  return {
    id: row.id,
    status: row.status,
    triggered_by: row.triggered_by,
    provider: row.provider,
    model: row.model,
    steps: row.steps,
    usage: { input_tokens: Number(row.input_tokens), output_tokens: Number(row.output_tokens) },
    error: row.error,
    cancel_requested_at: row.cancel_requested_at?.toISOString() ?? null,
    exchange_id: row.exchange_id ?? row.id,
    version: row.version,
    user_message_id: row.user_message_id,
    superseded: row.superseded_at !== null,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  }
}

export function presentToolCall(row: ToolCallRow): AssistantToolCall {
  return {
    id: row.id,
    turn_id: row.turn_id,
    message_id: row.message_id,
    name: row.name,
    tool: row.tool,
    arguments: row.arguments,
    status: row.status,
    result: row.result,
    decided_by: row.decided_by,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    // Only a call with an article_id argument: null when no article the reader sees has that id.
    ...(row.article_ref && {
      article: row.article_title ? { id: row.article_ref, title: row.article_title } : null,
    }),
  }
}

export function presentMessage(row: MessageRow, calls: ToolCallRow[]): AssistantMessage {
  return {
    id: row.id,
    turn_id: row.turn_id,
    role: row.role,
    content: row.content,
    tool_calls: calls.filter((c) => c.message_id === row.id).map(presentToolCall),
    created_at: row.created_at.toISOString(),
  }
}
