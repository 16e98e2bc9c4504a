import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { pruneRateLimits } from '@shared/services/retention/retention.ts'
import { pruneRateLimitsResult } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/prune-rate-limits',
  summary: 'Job: delete finished rate-limit windows (service role only)',
  responses: { 200: jsonContent(pruneRateLimitsResult, 'Count'), ...errorResponses(401) },
})

export const registerPruneRateLimitsJob = (app: App) =>
  app.openapi(route, async (c) => c.json({ deleted: await pruneRateLimits(c.var.deps) }, 200))
