import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listDeliveries } from '@shared/services/commerce/deliveries.ts'
import { deliveriesQuery, deliveryListSchema } from '@shared/services/commerce/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/deliveries',
  summary: 'The log of received deliveries',
  description: 'The log of received deliveries, newest first (status=failed lists the dead letters)',
  request: { query: pageQuery.extend(deliveriesQuery.shape) },
  responses: {
    200: jsonContent(deliveryListSchema, 'A page of deliveries'),
    ...errorResponses(400, 401, 429),
  },
})

export const registerListDeliveries = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, ...filter } = c.req.valid('query')
    return c.json(
      await listDeliveries(serviceContext(c), filter, { limit, after: decodeCursor(cursor) }),
      200,
    )
  })
