import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listConversations } from '@shared/services/assistant/conversations.ts'
import { conversationListSchema, conversationSearchQuery } from '@shared/services/assistant/schema.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/conversations',
  summary: 'List conversations',
  description:
    'List conversations, newest first (keyset pagination); `q` searches titles and messages, `origin` keeps chats or automation runs',
  request: { query: pageQuery.extend(conversationSearchQuery.shape) },
  responses: {
    200: jsonContent(conversationListSchema, 'A page of conversations'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListConversations = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, q, origin } = c.req.valid('query')
    return c.json(
      await listConversations(serviceContext(c), decodeCursor(cursor), limit, {
        q: q?.trim() || undefined,
        origin,
      }),
      200,
    )
  })
