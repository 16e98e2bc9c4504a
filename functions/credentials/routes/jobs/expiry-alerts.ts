import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { sendExpiryAlerts } from '@shared/services/credentials/expiry-alerts.ts'

const countsSchema = z.object({ expiring: z.number().int(), notified: z.number().int() })

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/expiry-alerts',
  summary: 'Job (daily): alert before a credential expires',
  description: 'Job (daily): alert owners and admins 7 days and 1 day before a credential expires',
  responses: { 200: jsonContent(countsSchema, 'Counts'), ...errorResponses(401) },
})

export const registerExpiryAlertsJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await sendExpiryAlerts(depsOf(c)), 200))
