import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { sendNotificationsResult } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/send-notifications',
  summary: 'Job: send queued e-mail notifications (service role only)',
  responses: { 200: jsonContent(sendNotificationsResult, 'Counts'), ...errorResponses(401) },
})

export const registerSendNotificationsJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await c.var.deps.notifier.sendPending(), 200))
