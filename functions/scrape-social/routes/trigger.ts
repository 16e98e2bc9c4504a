import { defineRoute } from '@shared/infra/http/define-route.ts'
import { jobTrigger } from '@shared/infra/http/job-trigger.ts'
import { serverFunctionAuth } from '@shared/infra/http/route-auth.ts'
import { acceptedJob } from '@shared/services/jobs/jobs.ts'
import { acceptedJobSchema } from '@shared/services/jobs/schema.ts'
import { triggerScrapeBody } from '@shared/services/sources/schema.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { queueScrape } from '@shared/services/sources/sources.ts'

const trigger = jobTrigger({
  body: triggerScrapeBody,
  accepted: acceptedJobSchema,
  queue: (ctx, body) => queueScrape(ctx, body.source_id),
  kick: (deps, job) => scrapeEngine(deps).kick([job.id]),
  present: acceptedJob,
})

export const route = defineRoute(serverFunctionAuth, {
  method: 'post',
  path: '/',
  summary: 'Scrape one source now',
  description:
    'Scrape one source now: answers 202 with the job (the one already queued or running, if any); GET /api/jobs/{job_id} follows it',
  request: trigger.request,
  responses: trigger.responses,
})

export const registerTrigger = trigger.register(route)
