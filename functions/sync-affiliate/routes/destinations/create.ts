import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { createDestination } from '@shared/services/affiliate/destinations.ts'
import { destinationInput, destinationSchema } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'post',
  path: '/destinations',
  summary: 'Create the affiliate destination of a site',
  description: 'Create the affiliate destination of a site (one per site), optionally on a schedule',
  request: { body: { content: { 'application/json': { schema: destinationInput } }, required: true } },
  responses: {
    201: jsonContent(destinationSchema, 'Created'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export const registerCreateDestination = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await createDestination(serviceContext(c), c.req.valid('json')), 201),
  )
