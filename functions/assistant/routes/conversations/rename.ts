import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { renameConversation } from '@shared/services/assistant/conversations.ts'
import { conversationSchema, renameConversationBody } from '@shared/services/assistant/schema.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'patch',
  path: '/conversations/{id}',
  summary: 'Rename a conversation',
  description:
    'Those who may see it (its creator; owners and admins) rename it; a title set here is never replaced by an automatic one.',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: renameConversationBody } }, required: true },
  },
  responses: {
    200: jsonContent(conversationSchema, 'The conversation'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerRenameConversation = (app: App) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param')
    return c.json(await renameConversation(serviceContext(c), id, c.req.valid('json').title), 200)
  })
