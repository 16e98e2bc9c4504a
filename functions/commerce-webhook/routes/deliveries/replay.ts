import { runInBackground } from '@shared/infra/background.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { replayDelivery } from '@shared/services/commerce/deliveries.ts'
import { kickProcessing } from '@shared/services/commerce/process.ts'
import { deliverySchema } from '@shared/services/commerce/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/deliveries/{id}/replay',
  summary: 'Queue a dead-lettered delivery again',
  description: 'Queue a dead-lettered delivery again, with a fresh retry schedule',
  request: { params: idParam },
  responses: {
    200: jsonContent(deliverySchema, 'The delivery, pending again'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerReplayDelivery = (app: App) =>
  app.openapi(route, async (c) => {
    const delivery = await replayDelivery(serviceContext(c), c.req.valid('param').id)
    runInBackground(kickProcessing(depsOf(c)))
    return c.json(delivery, 200)
  })
