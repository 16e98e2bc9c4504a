import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { sourceListSchema } from '@shared/services/sources/schema.ts'
import { listSources } from '@shared/services/sources/sources.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/sources',
  summary: "List the tenant's sources, newest first",
  request: { query: pageQuery },
  responses: {
    200: jsonContent(sourceListSchema, 'A page of sources'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListSources = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(await listSources(serviceContext(c), { limit, after: decodeCursor(cursor) }), 200)
  })
