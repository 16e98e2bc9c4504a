import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { checkUsageAlerts } from '@shared/services/usage/alerts.ts'

const queuedSchema = z.object({ queued: z.number() })

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/check-usage-alerts',
  summary: 'Job: queue usage alerts that are due and not yet sent',
  description: 'Job: queue usage alerts that are due and not yet sent (service role only)',
  responses: { 200: jsonContent(queuedSchema, 'Count'), ...errorResponses(401) },
})

export const registerCheckUsageAlertsJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await checkUsageAlerts(depsOf(c)), 200))
