import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { resumeSubscription } from '@shared/services/webhooks/pause.ts'
import { subscriptionSchema } from '@shared/services/webhooks/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/resume',
  summary: 'Reactivate a paused subscription',
  description: 'Reactivate a paused subscription and deliver the events held while it was paused',
  request: { params: idParam },
  responses: {
    200: jsonContent(subscriptionSchema, 'The subscription'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type ResumeSubscriptionResponse = z.infer<typeof subscriptionSchema>

export const registerResumeSubscription = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await resumeSubscription(serviceContext(c), c.req.valid('param').id), 200),
  )
