import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { sweepTurns } from '@shared/services/assistant/sweep.ts'
import { scheduledSweepReportSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/sweep',
  summary: 'Job: start due automations',
  description:
    'Job: start due automations, resume turns a stopped instance left (lease ran out), mark failed ones',
  responses: { 200: jsonContent(scheduledSweepReportSchema, 'Counts'), ...errorResponses(401) },
})

export const registerSweep = (app: App) =>
  app.openapi(route, async (c) => c.json(await sweepTurns(depsOf(c)), 200))
