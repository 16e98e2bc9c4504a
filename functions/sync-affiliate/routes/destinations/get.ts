import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { getDestination } from '@shared/services/affiliate/destinations.ts'
import { destinationSchema } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/destinations/{id}',
  summary: 'One destination with its programs and its last sync',
  request: { params: idParam },
  responses: {
    200: jsonContent(destinationSchema, 'The destination'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetDestination = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getDestination(serviceContext(c), c.req.valid('param').id), 200),
  )
