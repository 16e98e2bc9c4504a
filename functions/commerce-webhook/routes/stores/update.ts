import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { storeSchema, updateStoreBody } from '@shared/services/commerce/schema.ts'
import { updateStore } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'patch',
  path: '/stores/{id}',
  summary: 'Rename a store or change its shop domain / site URL',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateStoreBody } }, required: true },
  },
  responses: {
    200: jsonContent(storeSchema, 'The store'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerUpdateStore = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateStore(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
