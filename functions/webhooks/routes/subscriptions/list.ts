import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { subscriptionListSchema } from '@shared/services/webhooks/schema.ts'
import { listSubscriptions } from '@shared/services/webhooks/subscriptions.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/',
  summary: "List the tenant's webhook subscriptions, newest first",
  request: { query: pageQuery },
  responses: {
    200: jsonContent(subscriptionListSchema, 'A page'),
    ...errorResponses(400, 401, 429),
  },
})

export type ListSubscriptionsResponse = z.infer<typeof subscriptionListSchema>

export const registerListSubscriptions = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(await listSubscriptions(serviceContext(c), { limit, after: decodeCursor(cursor) }), 200)
  })
