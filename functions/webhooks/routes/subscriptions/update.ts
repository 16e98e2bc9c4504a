import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { subscriptionSchema, updateSubscriptionBody } from '@shared/services/webhooks/schema.ts'
import { updateSubscription } from '@shared/services/webhooks/subscriptions.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'patch',
  path: '/{id}',
  summary: 'Update url, events or description',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateSubscriptionBody } }, required: true },
  },
  responses: {
    200: jsonContent(subscriptionSchema, 'The subscription'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerUpdateSubscription = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateSubscription(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
