import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContextForTenant } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { serverFunctionAuth } from '@shared/infra/http/route-auth.ts'
import { queueSync } from '@shared/services/affiliate/destinations.ts'
import { syncBody } from '@shared/services/affiliate/schema.ts'
import { syncEngine } from '@shared/services/affiliate/sync.ts'
import { acceptedJob } from '@shared/services/jobs/jobs.ts'
import { acceptedJobSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(serverFunctionAuth, {
  method: 'post',
  path: '/',
  summary:
    "Sync a destination's affiliate catalogs: answers 202 with the job (the one already queued or running, if any)",
  request: { body: { content: { 'application/json': { schema: syncBody } }, required: true } },
  responses: {
    202: jsonContent(acceptedJobSchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerTrigger = (app: App) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid('json')
    const ctx = await serviceContextForTenant(c, body.tenant_id)
    const { job, created } = await queueSync(ctx, body.destination_id)
    if (created) syncEngine(c.var.deps).kick([job.id])
    return c.json(acceptedJob(job), 202)
  })
