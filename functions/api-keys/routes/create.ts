import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { createApiKey } from '@shared/services/api-keys/api-keys.ts'
import { createApiKeyBody, createdApiKeySchema } from '@shared/services/api-keys/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/',
  summary: 'Create an API key (the secret is shown once)',
  request: { body: { content: { 'application/json': { schema: createApiKeyBody } }, required: true } },
  responses: {
    201: jsonContent(createdApiKeySchema, 'Created'),
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

export const registerCreateApiKey = (app: App) =>
  app.openapi(route, async (c) => c.json(await createApiKey(serviceContext(c), c.req.valid('json')), 201))
