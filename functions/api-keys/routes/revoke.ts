import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { revokeApiKey } from '@shared/services/api-keys/api-keys.ts'
import { apiKeySchema } from '@shared/services/api-keys/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/revoke',
  summary: 'Revoke an API key (takes effect at once; idempotent)',
  request: { params: idParam },
  responses: {
    200: jsonContent(apiKeySchema, 'The revoked key'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerRevokeApiKey = (app: App) =>
  app.openapi(route, async (c) => c.json(await revokeApiKey(serviceContext(c), c.req.valid('param').id), 200))
