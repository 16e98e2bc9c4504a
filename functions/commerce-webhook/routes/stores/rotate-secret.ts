import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { rotateStoreSecretBody, storeSchema } from '@shared/services/commerce/schema.ts'
import { rotateStoreSecret } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/stores/{id}/rotate-secret',
  summary: "Replace the store's signing secret",
  description: "Replace the store's signing secret (takes effect on the next delivery)",
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: rotateStoreSecretBody } }, required: true },
  },
  responses: {
    200: jsonContent(storeSchema, 'The store'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerRotateStoreSecret = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await rotateStoreSecret(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
