import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import type { DispatchResult } from '@shared/services/webhooks/dispatcher.ts'
import { dispatchResultSchema } from '@shared/services/webhooks/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/dispatch',
  summary: 'Job: send due deliveries',
  description: 'Job: send due deliveries (service role only; pg_cron every minute)',
  responses: { 200: jsonContent(dispatchResultSchema, 'Counts'), ...errorResponses(401) },
})

export type DispatchJobResponse = z.infer<typeof dispatchResultSchema>

/** `runDispatch` runs the app's dispatcher (see createApp): its in-flight slots are shared per process. */
export const registerDispatchJob = (app: App, runDispatch: () => Promise<DispatchResult>) =>
  app.openapi(route, async (c) => c.json(await runDispatch(), 200))
