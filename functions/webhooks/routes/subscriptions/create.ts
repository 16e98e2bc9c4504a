import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { createdSubscriptionSchema, createSubscriptionBody } from '@shared/services/webhooks/schema.ts'
import { createSubscription } from '@shared/services/webhooks/subscriptions.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/',
  summary: 'Create a webhook subscription (returns its signing secret)',
  request: { body: { content: { 'application/json': { schema: createSubscriptionBody } }, required: true } },
  responses: {
    201: jsonContent(createdSubscriptionSchema, 'Created'),
    ...errorResponses(400, 401, 403, 413, 422, 429),
  },
})

export type CreateSubscriptionResponse = z.infer<typeof createdSubscriptionSchema>

export const registerCreateSubscription = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await createSubscription(serviceContext(c), c.req.valid('json')), 201),
  )
