/**
 * The assistant: conversations, its settings and automations. A turn itself streams
 * (text/event-stream) and is read by pages/assistant.tsx through functionFetch; the typed client
 * reads answers as JSON.
 */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type ConversationDetail = Schema<'AssistantConversationDetail'>
export type Message = Schema<'AssistantMessage'>
export type ToolCall = Schema<'AssistantToolCall'>
export type Turn = Schema<'AssistantTurn'>
export type TurnQuota = Schema<'AssistantTurnResult'>['quota']
export type AssistantSettings = Schema<'AssistantSettings'>
export type Automation = Schema<'Automation'>
/** The platform events an automation may run on. */
export type AutomationEvent = Extract<Schema<'AutomationTrigger'>, { type: 'event' }>['event']

// ---- Conversations

export type Conversation = Schema<'AssistantConversation'>

/** The latest 50 conversations people started (automation runs are on their own page); `q` searches. */
export const useConversations = (q: string, deps: unknown[]) =>
  useLoad(
    () =>
      call(
        platform.GET('/v1/assistant/conversations', {
          params: { query: { limit: 50, origin: 'chat', q: q || undefined } },
        }),
      ),
    deps,
  )
/** The latest 20 conversations of automations' runs, for the Automations page. */
export const useAutomationRunConversations = () =>
  useLoad(() =>
    call(
      platform.GET('/v1/assistant/conversations', { params: { query: { limit: 20, origin: 'automation' } } }),
    ),
  )
export const useConversation = (id: string) =>
  useLoad(() => call(platform.GET('/v1/assistant/conversations/{id}', { params: { path: { id } } })), [id])
export const createConversation = () => call(platform.POST('/v1/assistant/conversations', { body: {} }))
export const renameConversation = (id: string, title: string) =>
  call(platform.PATCH('/v1/assistant/conversations/{id}', { params: { path: { id } }, body: { title } }))
export const deleteConversation = (id: string) =>
  call(platform.DELETE('/v1/assistant/conversations/{id}', { params: { path: { id } } }))
export const cancelTurn = (id: string, turn_id: string) =>
  call(
    platform.POST('/v1/assistant/conversations/{id}/turns/{turn_id}/cancel', {
      params: { path: { id, turn_id } },
    }),
  )

// ---- Settings

export const useAssistantSettings = () => useLoad(() => call(platform.GET('/v1/assistant/settings')))
export const saveAssistantSettings = (body: Schema<'AssistantSettingsUpdate'>) =>
  call(platform.PUT('/v1/assistant/settings', { body }))

// ---- Automations

export const useAutomations = () => useLoad(() => call(platform.GET('/v1/assistant/automations')))
export const createAutomation = (body: Schema<'AutomationInput'>) =>
  call(platform.POST('/v1/assistant/automations', { body }))
export const updateAutomation = (id: string, body: Schema<'AutomationUpdate'>) =>
  call(platform.PATCH('/v1/assistant/automations/{id}', { params: { path: { id } }, body }))
export const deleteAutomation = (id: string) =>
  call(platform.DELETE('/v1/assistant/automations/{id}', { params: { path: { id } } }))
