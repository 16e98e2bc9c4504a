import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { redeliverEvent } from '@shared/services/webhooks/delivery-log.ts'
import { deliverySchema, redeliverBody } from '@shared/services/webhooks/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/redeliver',
  summary: 'Send one event again',
  description: 'Send one event again (a new run of the retry schedule, same event id)',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: redeliverBody } }, required: true },
  },
  responses: {
    202: jsonContent(deliverySchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export type RedeliverEventResponse = z.infer<typeof deliverySchema>

export const registerRedeliverEvent = (app: App) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param')
    return c.json(await redeliverEvent(serviceContext(c), id, c.req.valid('json').event_id), 202)
  })
