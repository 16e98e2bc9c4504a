import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { subscriptionSchema } from '@shared/services/webhooks/schema.ts'
import { getSubscription } from '@shared/services/webhooks/subscriptions.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}',
  summary: 'Get one webhook subscription',
  request: { params: idParam },
  responses: {
    200: jsonContent(subscriptionSchema, 'The subscription'),
    ...errorResponses(400, 401, 404, 429),
  },
})

export type GetSubscriptionResponse = z.infer<typeof subscriptionSchema>

export const registerGetSubscription = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getSubscription(serviceContext(c), c.req.valid('param').id), 200),
  )
