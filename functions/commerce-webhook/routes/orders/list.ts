import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listOrders } from '@shared/services/commerce/orders.ts'
import { orderListSchema, ordersQuery } from '@shared/services/commerce/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/orders',
  summary: 'Synced orders, newest first, with filters',
  request: { query: pageQuery.extend(ordersQuery.shape) },
  responses: {
    200: jsonContent(orderListSchema, 'A page of orders'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListOrders = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, ...filter } = c.req.valid('query')
    return c.json(await listOrders(serviceContext(c), filter, { limit, after: decodeCursor(cursor) }), 200)
  })
