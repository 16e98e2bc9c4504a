import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { usageQuery, usageSchema } from '@shared/services/usage/schema.ts'
import { getUsage, type Usage } from '@shared/services/usage/usage.ts'

export const route = defineRoute(memberOrKey('billing:read'), {
  method: 'get',
  path: '/usage',
  summary: 'Usage, quota, percent and overage per product for a month',
  description: 'Usage, quota, percent and overage per product for a month (users, or keys with billing:read)',
  request: { query: usageQuery },
  responses: { 200: jsonContent(usageSchema, 'Usage'), ...errorResponses(400, 401, 403, 429) },
})

export type GetUsageResponse = Usage

export const registerGetUsage = (app: App) =>
  app.openapi(route, async (c) => c.json(await getUsage(serviceContext(c), c.req.valid('query').period), 200))
