import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { getDelivery } from '@shared/services/commerce/deliveries.ts'
import { deliverySchema } from '@shared/services/commerce/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/deliveries/{id}',
  summary: 'One received delivery (its state, never its payload)',
  request: { params: idParam },
  responses: { 200: jsonContent(deliverySchema, 'The delivery'), ...errorResponses(400, 401, 404, 429) },
})

export const registerGetDelivery = (app: App) =>
  app.openapi(route, async (c) => c.json(await getDelivery(serviceContext(c), c.req.valid('param').id), 200))
