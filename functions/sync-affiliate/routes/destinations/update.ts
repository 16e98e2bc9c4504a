import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { updateDestination } from '@shared/services/affiliate/destinations.ts'
import { destinationSchema, destinationUpdate } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'patch',
  path: '/destinations/{id}',
  summary: 'Rename a destination, change its schedule, or pause it',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: destinationUpdate } }, required: true },
  },
  responses: {
    200: jsonContent(destinationSchema, 'Updated'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerUpdateDestination = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateDestination(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
