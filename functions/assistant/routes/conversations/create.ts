import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { createConversation } from '@shared/services/assistant/conversations.ts'
import { conversationSchema, createConversationBody } from '@shared/services/assistant/schema.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'post',
  path: '/conversations',
  summary: 'Start a conversation with the assistant',
  description:
    'A conversation belongs to the member who starts it (a key: its creator). Members see their own conversations; owners and admins see all of the tenant.',
  request: {
    body: { content: { 'application/json': { schema: createConversationBody } }, required: false },
  },
  responses: {
    201: jsonContent(conversationSchema, 'The conversation'),
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

export const registerCreateConversation = (app: App) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid('json') ?? {}
    return c.json(await createConversation(serviceContext(c), body), 201)
  })
