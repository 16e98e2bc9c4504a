import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { deleteConversation } from '@shared/services/assistant/conversations.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'delete',
  path: '/conversations/{id}',
  summary: 'Delete a conversation with its messages and tool calls',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteConversation = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteConversation(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
