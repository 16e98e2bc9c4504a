import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { dailyUsageSchema, usageQuery } from '@shared/services/usage/schema.ts'
import { type DailyUsage, getDailyUsage } from '@shared/services/usage/usage.ts'

export const route = defineRoute(memberOrKey('billing:read'), {
  method: 'get',
  path: '/usage/daily',
  summary: "Each product's use per day of a month",
  description:
    "Each product's use per day of a month, with its monthly quota (users, or keys with billing:read)",
  request: { query: usageQuery },
  responses: { 200: jsonContent(dailyUsageSchema, 'Daily usage'), ...errorResponses(400, 401, 403, 429) },
})

export type GetDailyUsageResponse = DailyUsage

export const registerGetDailyUsage = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getDailyUsage(serviceContext(c), c.req.valid('query').period), 200),
  )
