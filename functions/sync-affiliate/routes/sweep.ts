import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { queueDueSyncs } from '@shared/services/affiliate/destinations.ts'
import { syncEngine } from '@shared/services/affiliate/sync.ts'
import { scheduledSweepReportSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/sweep',
  summary: 'Job: queue the syncs of scheduled destinations that are due',
  description:
    'Job: queue the syncs of scheduled destinations that are due, then run due and stalled sync jobs',
  responses: { 200: jsonContent(scheduledSweepReportSchema, 'Counts'), ...errorResponses(401) },
})

export const registerSweep = (app: App) =>
  app.openapi(route, async (c) => {
    const deps = depsOf(c)
    const scheduled = await queueDueSyncs(deps)
    const report = await syncEngine(deps).runDue({ limit: 2 })
    return c.json({ scheduled: scheduled.length, ...report }, 200)
  })
