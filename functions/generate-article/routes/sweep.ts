import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { generationEngine } from '@shared/services/generation/generate.ts'
import { sweepReportSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/sweep',
  summary: 'Job: run due generation jobs',
  description: 'Job: run due generation jobs (retries after backoff) and those a stopped instance left',
  responses: { 200: jsonContent(sweepReportSchema, 'Counts'), ...errorResponses(401) },
})

export const registerSweep = (app: App) =>
  app.openapi(route, async (c) => c.json(await generationEngine(depsOf(c)).runDue(), 200))
