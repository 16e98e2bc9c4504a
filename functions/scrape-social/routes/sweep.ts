import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { scheduledSweepReportSchema } from '@shared/services/jobs/schema.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { queueDueScrapes } from '@shared/services/sources/sources.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/sweep',
  summary: 'Job: queue the scrapes of scheduled sources that are due',
  description:
    'Job: queue the scrapes of scheduled sources that are due, then run due and stalled scrape jobs',
  responses: { 200: jsonContent(scheduledSweepReportSchema, 'Counts'), ...errorResponses(401) },
})

export const registerSweep = (app: App) =>
  app.openapi(route, async (c) => {
    const deps = depsOf(c)
    const scheduled = await queueDueScrapes(deps)
    const report = await scrapeEngine(deps).runDue()
    return c.json({ scheduled: scheduled.length, ...report }, 200)
  })
