import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { getApiKey } from '@shared/services/api-keys/api-keys.ts'
import { apiKeySchema } from '@shared/services/api-keys/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}',
  summary: 'Get one API key',
  request: { params: idParam },
  responses: {
    200: jsonContent(apiKeySchema, 'The key'),
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerGetApiKey = (app: App) =>
  app.openapi(route, async (c) => c.json(await getApiKey(serviceContext(c), c.req.valid('param').id), 200))
