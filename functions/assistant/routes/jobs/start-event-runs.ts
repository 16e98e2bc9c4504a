import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { startEventRuns } from '@shared/services/assistant/event-runs-kick.ts'

const startedSchema = z.object({ started: z.number().int().openapi({ description: 'Event runs started' }) })

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/start-event-runs',
  summary: 'Job: start the automation runs committed events queued',
  description:
    "Job: start the automation runs committed events queued, each once (the kick after an event's commit; service role only)",
  responses: { 200: jsonContent(startedSchema, 'How many runs started'), ...errorResponses(401) },
})

export const registerStartEventRuns = (app: App) =>
  app.openapi(route, async (c) => c.json({ started: await startEventRuns(depsOf(c)) }, 200))
