import {
  handleReceipt,
  receiptQuery,
  receiptSchema,
  receiveDescription,
} from '@functions/commerce-webhook/receive.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

export const route = defineRoute(publicRoute, {
  method: 'post',
  path: '/',
  summary: 'Receive a Shopify webhook at the shared address',
  description:
    'Receive a Shopify webhook at the shared address (stores connected before per-store addresses)' +
    '\n\n' +
    `${receiveDescription}\n\nThe store is found by X-Shopify-Shop-Domain among the Shopify stores connected before every store got its own address (docs/commerce.md); a store connected since is reached only at its own address, POST /stores/{store_id}.`,
  request: { query: receiptQuery },
  responses: {
    200: jsonContent(receiptSchema, 'Stored (or a duplicate, or an ignored topic)'),
    ...errorResponses(400, 401, 413, 429),
  },
})

export const registerReceiveShopify = (app: App) => app.openapi(route, (c) => handleReceipt(c, undefined))
