import { z } from '@hono/zod-openapi'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { aiProviders } from '../generation/schema.ts'

/** Request and response bodies of the assistant API (docs/assistant.md), and its stream events. */

/** A user message is bounded: 32,000 characters (about 8,000 tokens). */
export const MAX_MESSAGE_CHARS = 32_000

/** Text fields refuse NUL, which PostgreSQL's text cannot store. */
export const noNul = (s: string) => !s.includes('\u0000')

export const createConversationBody = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine(noNul, 'must not contain NUL')
      .optional()
      .openapi({ description: 'Default: "New conversation"; the first message names it otherwise' }),
  })
  .strict()
  .openapi('CreateConversation', { example: { title: 'Weekly newsletter' } })

export const postMessageBody = z
  .object({
    content: z
      .string()
      .max(MAX_MESSAGE_CHARS)
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .refine(noNul, 'must not contain NUL')
      .openapi({ description: `The user's message (1 to ${MAX_MESSAGE_CHARS} characters)` }),
  })
  .strict()
  .openapi('PostMessage', {
    example: { content: 'Post the title of our newest draft to #content on Slack.' },
  })

export const approvalBody = z
  .object({
    approve: z.boolean().openapi({ description: 'true runs the tool call, false refuses it' }),
    reason: z
      .string()
      .max(500)
      .refine(noNul, 'must not contain NUL')
      .optional()
      .openapi({ description: 'Told to the model with a denial' }),
    publish_at: isoTimestamp().optional().openapi({
      description:
        'Approving a platform:schedule_article call: the time to publish at instead of the one the model chose; a time already past publishes at once',
    }),
  })
  .strict()
  .refine((b) => b.publish_at === undefined || b.approve, {
    path: ['publish_at'],
    message: 'only with approve: true',
  })
  .openapi('ToolCallApproval', { example: { approve: true } })

export const settingsBody = z
  .object({
    provider: z.enum(aiProviders).nullable().optional().openapi({
      description:
        "OpenAI-compatible Chat Completions or Anthropic Messages; null picks the provider of the tenant's AI credential (OpenAI first)",
    }),
    model: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._:/@-]+$/)
      .nullable()
      .optional()
      .openapi({ description: 'The model id; null is the default (gpt-4o-mini / claude-sonnet-4-6)' }),
    credential_environment: z.enum(['development', 'staging', 'production']).optional(),
    instructions: z
      .string()
      .max(4000)
      .refine(noNul, 'must not contain NUL')
      .nullable()
      .optional()
      .openapi({ description: "The tenant's own instructions, added to the system prompt" }),
    approval_ttl_hours: z.number().int().min(1).max(720).optional().openapi({
      description:
        'How long a tool call waits for approval before it counts as denied (1 to 720 hours; 24 by default)',
    }),
  })
  .strict()
  .openapi('AssistantSettingsUpdate', { example: { provider: 'anthropic', model: 'claude-sonnet-4-6' } })

export const settingsSchema = z
  .object({
    provider: z.enum(aiProviders).nullable(),
    model: z.string().nullable(),
    credential_environment: z.enum(['development', 'staging', 'production']),
    instructions: z.string().nullable(),
    approval_ttl_hours: z.number().int(),
    effective: z
      .object({
        provider: z.enum(aiProviders).nullable(),
        model: z.string().nullable(),
        credential: z.boolean().openapi({ description: 'Whether a usable AI credential exists' }),
      })
      .openapi({ description: 'What the next turn will use' }),
  })
  .openapi('AssistantSettings')

const usageSchema = z
  .object({ input_tokens: z.number().int(), output_tokens: z.number().int() })
  .openapi('TokenUsage', { example: { input_tokens: 412, output_tokens: 96 } })

const toolCallStatuses = [
  'running',
  'awaiting_approval',
  'approved',
  'denied',
  'ok',
  'refused',
  'invalid',
  'failed',
  'interrupted',
  'cancelled',
] as const

/** The article a tool call's `article_id` names, as the reader may see it; null: none it can see. */
export const articleRefSchema = z
  .object({ id: z.uuid(), title: z.string() })
  .nullable()
  .openapi('AssistantArticleRef', {
    description: "The article the call's article_id names (present on stored calls that have one)",
  })

const toolCallSchema = z
  .object({
    id: z.uuid(),
    turn_id: z.uuid(),
    message_id: z.uuid(),
    name: z
      .string()
      .openapi({ description: 'The name the model used (provider-safe)', example: 'slack__post_message' }),
    tool: z.string().openapi({ example: 'slack:post_message' }),
    arguments: z.record(z.string(), z.unknown()),
    status: z.enum(toolCallStatuses),
    result: z.string().nullable().openapi({ description: 'What went back to the model (bounded)' }),
    decided_by: z.uuid().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    article: articleRefSchema.optional(),
  })
  .openapi('AssistantToolCall')

const messageSchema = z
  .object({
    id: z.uuid(),
    turn_id: z.uuid().nullable(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    tool_calls: z.array(toolCallSchema),
    created_at: z.string(),
  })
  .openapi('AssistantMessage')

const turnStatuses = ['running', 'awaiting_approval', 'completed', 'failed', 'stopped', 'cancelled'] as const

export const turnSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(turnStatuses),
    triggered_by: z.enum(['assistant', 'automation']),
    provider: z.enum(aiProviders),
    model: z.string(),
    steps: z.number().int(),
    usage: usageSchema,
    error: z.string().nullable().openapi({ description: 'Why a turn failed or stopped' }),
    cancel_requested_at: z.string().nullable().openapi({
      description: 'When someone asked to stop it; the turn records cancelled at its next step',
    }),
    exchange_id: z.uuid().openapi({
      description: 'The exchange (a user message and its answer) this turn is a version of',
    }),
    version: z.number().int().openapi({ description: "The exchange's version this turn is (1, 2, ...)" }),
    user_message_id: z.uuid().nullable().openapi({ description: 'The user message it answers' }),
    superseded: z
      .boolean()
      .openapi({ description: 'A later version (regenerate or edit) replaced it; it is an alternative' }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi('AssistantTurn')

const conversationOrigins = ['chat', 'automation'] as const
export type ConversationOrigin = (typeof conversationOrigins)[number]

export const conversationSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    title_source: z.enum(['default', 'rule', 'model', 'user']).openapi({
      description:
        'default: no message yet; rule: the first message, shortened; model: named by a short model call from the first exchange; user: set by a person (never overwritten)',
    }),
    origin: z.enum(conversationOrigins).openapi({
      description: "chat: started by a person; automation: an automation's run (one per run)",
    }),
    created_by: z.uuid().nullable(),
    usage: usageSchema,
    last_message_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AssistantConversation')

export const conversationListSchema = z
  .object({ data: z.array(conversationSchema), next_cursor: z.string().nullable() })
  .openapi('AssistantConversationList')

const alternativeSchema = z
  .object({
    exchange_id: z.uuid(),
    version: z.number().int(),
    turn_id: z.uuid(),
    messages: z
      .array(messageSchema)
      .openapi({ description: 'The user message it answered, then its answers with their tool calls' }),
  })
  .openapi('AssistantAlternative')

export const renameConversationBody = z
  .object({ title: z.string().trim().min(1).max(200).refine(noNul, 'must not contain NUL') })
  .strict()
  .openapi('RenameConversation', { example: { title: 'Spring menu launch' } })

export const conversationSearchQuery = z.object({
  q: z.string().max(200).optional().openapi({
    description: 'Full-text search over titles and message content (every word; the last as a prefix)',
  }),
  origin: z.enum(conversationOrigins).optional().openapi({
    description: "Only conversations people started (chat) or automations' runs (automation); absent: both",
  }),
})

export const conversationDetailSchema = conversationSchema
  .extend({
    messages: z.array(messageSchema).openapi({ description: 'Oldest first, with their tool calls' }),
    turns: z.array(turnSchema).openapi({ description: 'Oldest first; the last shows a turn in progress' }),
    alternatives: z.array(alternativeSchema).openapi({
      description:
        'Earlier versions of exchanges (regenerated or edited), oldest first; `messages` is the newest version of each',
    }),
  })
  .openapi('AssistantConversationDetail')

export const turnResultSchema = z
  .object({
    turn: turnSchema,
    message: messageSchema.nullable().openapi({ description: "The turn's last assistant message" }),
    tool_calls: z.array(toolCallSchema).openapi({ description: 'Every tool call of the turn' }),
    usage: usageSchema,
    quota: z
      .object({ used: z.number().int(), limit: z.number().int().nullable() })
      .openapi({ description: "The month's Assistant API tokens and the plan's quota (null: unlimited)" }),
  })
  .openapi('AssistantTurnResult')

export type Conversation = z.infer<typeof conversationSchema>
export type ConversationDetail = z.infer<typeof conversationDetailSchema>
export type AssistantMessage = z.infer<typeof messageSchema>
export type AssistantAlternative = z.infer<typeof alternativeSchema>
export type AssistantToolCall = z.infer<typeof toolCallSchema>
export type AssistantTurn = z.infer<typeof turnSchema>
export type TurnResult = z.infer<typeof turnResultSchema>
export type AssistantSettings = z.infer<typeof settingsSchema>
export type SettingsInput = z.infer<typeof settingsBody>

/**
 * The stream (Accept: text/event-stream): one SSE event per step, `event:` the name, `data:` JSON.
 * The last event is always `turn.ended` with the same body as the JSON answer.
 */
export const streamEvents = {
  'turn.started': '{turn_id, conversation_id, message}: the stored user message',
  'text.delta': '{text}: the next piece of the assistant text',
  'tool_call.started': '{id, name, tool, arguments}: the model called a tool; it runs now',
  'tool_call.approval_required':
    '{id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})',
  'tool_call.completed':
    '{id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled',
  usage: "{input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens",
  'turn.ended': 'the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)',
} as const
export type StreamEventName = keyof typeof streamEvents
