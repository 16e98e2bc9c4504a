import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContextForTenant } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { serverFunctionAuth } from '@shared/infra/http/route-auth.ts'
import { acceptedJob } from '@shared/services/jobs/jobs.ts'
import { acceptedJobSchema } from '@shared/services/jobs/schema.ts'
import { triggerScrapeBody } from '@shared/services/sources/schema.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { queueScrape } from '@shared/services/sources/sources.ts'

export const route = defineRoute(serverFunctionAuth, {
  method: 'post',
  path: '/',
  summary:
    'Scrape one source now: answers 202 with the job (the one already queued or running, if any); GET /api/jobs/{job_id} follows it',
  request: { body: { content: { 'application/json': { schema: triggerScrapeBody } }, required: true } },
  responses: {
    202: jsonContent(acceptedJobSchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerTrigger = (app: App) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid('json')
    const ctx = await serviceContextForTenant(c, body.tenant_id)
    const { job, created } = await queueScrape(ctx, body.source_id)
    if (created) scrapeEngine(c.var.deps).kick([job.id])
    return c.json(acceptedJob(job), 202)
  })
