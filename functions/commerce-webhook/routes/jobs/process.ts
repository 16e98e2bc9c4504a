import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { processDueDeliveries } from '@shared/services/commerce/process.ts'

const processResultSchema = z.object({
  claimed: z.number().int(),
  processed: z.number().int(),
  retried: z.number().int(),
  dead_lettered: z.number().int(),
  lease_lost: z.number().int(),
})

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/process',
  summary: 'Job: process due deliveries',
  description: 'Job: process due deliveries (service role only; pg_cron every minute)',
  responses: { 200: jsonContent(processResultSchema, 'Counts'), ...errorResponses(401) },
})

export const registerProcessJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await processDueDeliveries(depsOf(c)), 200))
