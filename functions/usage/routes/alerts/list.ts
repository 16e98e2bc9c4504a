import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listAlerts } from '@shared/services/usage/alerts.ts'
import { alertSchema } from '@shared/services/usage/schema.ts'

const alertListSchema = z.object({ data: z.array(alertSchema) })

export const route = defineRoute(member, {
  method: 'get',
  path: '/alerts',
  summary: "The tenant's usage alerts",
  responses: {
    200: jsonContent(alertListSchema, 'Alerts'),
    ...errorResponses(401, 403, 429),
  },
})

export type ListAlertsResponse = z.infer<typeof alertListSchema>

export const registerListAlerts = (app: App) =>
  app.openapi(route, async (c) => c.json(await listAlerts(serviceContext(c)), 200))
