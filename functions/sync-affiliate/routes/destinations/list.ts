import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listDestinations } from '@shared/services/affiliate/destinations.ts'
import { destinationListSchema } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/destinations',
  summary: "The tenant's affiliate destinations with their programs",
  description: "The tenant's affiliate destinations with their programs, newest first",
  request: { query: pageQuery },
  responses: {
    200: jsonContent(destinationListSchema, 'A page of destinations'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListDestinations = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(await listDestinations(serviceContext(c), { limit, after: decodeCursor(cursor) }), 200)
  })
