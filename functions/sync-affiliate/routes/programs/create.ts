import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { addProgram } from '@shared/services/affiliate/destinations.ts'
import { programInput, programSchema } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'post',
  path: '/destinations/{id}/programs',
  summary: 'Attach an affiliate program',
  description:
    'Attach an affiliate program (a network, merchant ids, feed or query, tracking id, credential)',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: programInput } }, required: true },
  },
  responses: {
    201: jsonContent(programSchema, 'Attached'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerCreateProgram = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await addProgram(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
