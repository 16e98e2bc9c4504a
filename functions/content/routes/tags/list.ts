import { cached, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { tagListSchema } from '@shared/services/content/schema.ts'
import { listTags } from '@shared/services/content/tags.ts'

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/tags',
  meter: 'content',
  summary: "List the tenant's tags",
  description:
    "List the tenant's tags, oldest first (content:read; a published-only key may)" +
    '\n\n' +
    `${metered}${cached}`,
  request: { query: pageQuery },
  responses: {
    200: jsonContent(tagListSchema, 'A page of tags'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListTags = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { limit, cursor } = c.req.valid('query')
    return answerRead(c, () => listTags(ctx, { limit, after: decodeCursor(cursor) }))
  })
