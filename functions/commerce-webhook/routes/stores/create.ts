import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { createStoreBody, storeSchema } from '@shared/services/commerce/schema.ts'
import { createStore } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/stores',
  summary: 'Connect a Shopify or WooCommerce store',
  description: 'Connect a Shopify or WooCommerce store (its signing secret is write-only)',
  request: { body: { content: { 'application/json': { schema: createStoreBody } }, required: true } },
  responses: {
    201: jsonContent(storeSchema, 'Created; webhook_url is the address to paste into the shop'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export const registerCreateStore = (app: App) =>
  app.openapi(route, async (c) => c.json(await createStore(serviceContext(c), c.req.valid('json')), 201))
