import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { pruneRateLimitBuckets } from '@shared/infra/rate-limit.ts'
import { pruneRateLimitsResult } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/prune-rate-limits',
  summary: 'Job: delete finished rate-limit windows (service role only)',
  responses: { 200: jsonContent(pruneRateLimitsResult, 'Count'), ...errorResponses(401) },
})

export const registerPruneRateLimitsJob = (app: App) =>
  app.openapi(route, async (c) => {
    const { sql, clock } = c.var.deps
    return c.json({ deleted: await pruneRateLimitBuckets(sql, clock.now()) }, 200)
  })
