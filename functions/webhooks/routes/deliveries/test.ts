import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { deliverySchema } from '@shared/services/webhooks/schema.ts'
import { sendTestEvent, TEST_EVENT_TYPE } from '@shared/services/webhooks/test-event.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/test',
  summary: `Send a ${TEST_EVENT_TYPE} event`,
  description: 'One attempt, no retries, also while the subscription is paused.',
  request: { params: idParam },
  responses: {
    202: jsonContent(deliverySchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type SendTestEventResponse = z.infer<typeof deliverySchema>

export const registerSendTestEvent = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await sendTestEvent(serviceContext(c), c.req.valid('param').id), 202),
  )
