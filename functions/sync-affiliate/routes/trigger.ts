import { defineRoute } from '@shared/infra/http/define-route.ts'
import { jobTrigger } from '@shared/infra/http/job-trigger.ts'
import { serverFunctionAuth } from '@shared/infra/http/route-auth.ts'
import { queueSync } from '@shared/services/affiliate/destinations.ts'
import { syncBody } from '@shared/services/affiliate/schema.ts'
import { syncEngine } from '@shared/services/affiliate/sync.ts'
import { acceptedJob } from '@shared/services/jobs/jobs.ts'
import { acceptedJobSchema } from '@shared/services/jobs/schema.ts'

const trigger = jobTrigger({
  body: syncBody,
  accepted: acceptedJobSchema,
  queue: (ctx, body) => queueSync(ctx, body.destination_id),
  kick: (deps, job) => syncEngine(deps).kick([job.id]),
  present: acceptedJob,
})

export const route = defineRoute(serverFunctionAuth, {
  method: 'post',
  path: '/',
  summary: "Sync a destination's affiliate catalogs",
  description:
    "Sync a destination's affiliate catalogs: answers 202 with the job (the one already queued or running, if any)",
  request: trigger.request,
  responses: trigger.responses,
})

export const registerTrigger = trigger.register(route)
