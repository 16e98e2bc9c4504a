import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { sourceSchema } from '@shared/services/sources/schema.ts'
import { getSource } from '@shared/services/sources/sources.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/sources/{id}',
  summary: 'One source, with its last run',
  request: { params: idParam },
  responses: {
    200: jsonContent(sourceSchema, 'The source'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetSource = (app: App) =>
  app.openapi(route, async (c) => c.json(await getSource(serviceContext(c), c.req.valid('param').id), 200))
