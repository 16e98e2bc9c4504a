import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { sourceItemListSchema } from '@shared/services/sources/schema.ts'
import { listSourceItems } from '@shared/services/sources/sources.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/sources/{id}/items',
  summary: "The source's scraped items",
  description: "The source's scraped items, newest first (their ids feed generate-article)",
  request: { params: idParam, query: pageQuery },
  responses: {
    200: jsonContent(sourceItemListSchema, 'A page of items'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerListSourceItems = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(
      await listSourceItems(serviceContext(c), c.req.valid('param').id, {
        limit,
        after: decodeCursor(cursor),
      }),
      200,
    )
  })
