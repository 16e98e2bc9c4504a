import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { getConversation } from '@shared/services/assistant/conversations.ts'
import { conversationDetailSchema } from '@shared/services/assistant/schema.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/conversations/{id}',
  summary: 'A conversation with its messages, tool calls and turns',
  description:
    'Everything is stored as it completes, so this shows where a turn in progress got to (its last turn has status running or awaiting_approval).',
  request: { params: idParam },
  responses: {
    200: jsonContent(conversationDetailSchema, 'The conversation'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetConversation = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getConversation(serviceContext(c), c.req.valid('param').id), 200),
  )
