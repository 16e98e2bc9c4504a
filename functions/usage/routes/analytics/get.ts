import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { type Analytics, getAnalytics } from '@shared/services/usage/analytics.ts'
import { analyticsQuery, analyticsSchema } from '@shared/services/usage/schema.ts'

export const route = defineRoute(memberOrKey('analytics:read'), {
  method: 'get',
  path: '/analytics',
  summary: 'Usage and event counts over a period',
  description:
    'Analytics API: usage per product and month, and event counts by type, over a period (analytics:read)' +
    '\n\n' +
    'Metered as one Analytics API request; past the Free quota: 429 QUOTA_EXCEEDED.',
  request: { query: analyticsQuery },
  responses: { 200: jsonContent(analyticsSchema, 'Analytics'), ...errorResponses(400, 401, 403, 429) },
})

export type GetAnalyticsResponse = Analytics

export const registerGetAnalytics = (app: App) =>
  app.openapi(route, async (c) => c.json(await getAnalytics(serviceContext(c), c.req.valid('query')), 200))
