import {
  handleReceipt,
  receiptQuery,
  receiptSchema,
  receiveDescription,
} from '@functions/commerce-webhook/receive.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

// Not validated as a uuid here: an ill-formed id gets the same 401 as an unknown one.
const storeParam = z.object({
  store_id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'store_id', in: 'path' } }),
})

export const route = defineRoute(publicRoute, {
  method: 'post',
  path: '/stores/{store_id}',
  summary: "Receive a store webhook at the store's own address",
  description:
    "Receive a Shopify or WooCommerce webhook at the store's own address (its webhook_url)" +
    '\n\n' +
    `${receiveDescription}\n\nWooCommerce's unsigned ping (body webhook_id=<id>) sent when a webhook is saved is answered 200 with status ping.`,
  request: { params: storeParam, query: receiptQuery },
  responses: {
    200: jsonContent(receiptSchema, 'Stored (or a duplicate, an ignored topic, a ping)'),
    ...errorResponses(400, 401, 413, 429),
  },
})

export const registerReceiveForStore = (app: App) =>
  app.openapi(route, (c) => handleReceipt(c, c.req.valid('param').store_id))
