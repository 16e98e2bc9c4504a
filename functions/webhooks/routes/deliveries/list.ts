import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { listDeliveryAttempts } from '@shared/services/webhooks/delivery-log.ts'
import { attemptListSchema, deliveriesQuery } from '@shared/services/webhooks/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}/deliveries',
  summary: 'The delivery log: attempts, newest first',
  request: { params: idParam, query: deliveriesQuery },
  responses: {
    200: jsonContent(attemptListSchema, 'A page of attempts'),
    ...errorResponses(400, 401, 404, 429),
  },
})

export type ListDeliveryAttemptsResponse = z.infer<typeof attemptListSchema>

export const registerListDeliveryAttempts = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, event_id } = c.req.valid('query')
    const query = { limit, after: decodeCursor(cursor), eventId: event_id }
    return c.json(await listDeliveryAttempts(serviceContext(c), c.req.valid('param').id, query), 200)
  })
