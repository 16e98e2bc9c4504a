import { createRoute, z } from '@hono/zod-openapi'
import { createFunctionApp } from '../../shared/app.ts'
import { authenticate } from '../../shared/auth.ts'
import type { FunctionDeps } from '../../shared/deps.ts'
import { errorResponses } from '../../shared/openapi.ts'
import { pruneRateLimitCounters } from '../../shared/rate-limit.ts'

export const functionName = 'tenants'

const serviceSecurity = [{ serviceRole: [] }]

const sendNotifications = createRoute({
  method: 'post',
  path: '/jobs/send-notifications',
  summary: 'Job: send queued e-mail notifications (service role only)',
  security: serviceSecurity,
  responses: {
    200: { description: 'Counts', content: { 'application/json': { schema: z.object({ sent: z.number(), failed: z.number() }) } } },
    ...errorResponses(401),
  },
})

const pruneRateLimits = createRoute({
  method: 'post',
  path: '/jobs/prune-rate-limits',
  summary: 'Job: delete finished rate-limit windows (service role only)',
  security: serviceSecurity,
  responses: {
    200: { description: 'Count', content: { 'application/json': { schema: z.object({ deleted: z.number() }) } } },
    ...errorResponses(401),
  },
})

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tenants, teams, notifications')

  app.use('/jobs/*', authenticate({ allow: ['service'] }))
  app.openapi(sendNotifications, async (c) => c.json(await deps.notifier.sendPending(), 200))
  app.openapi(pruneRateLimits, async (c) => c.json({ deleted: await pruneRateLimitCounters(deps.sql, deps.clock.now()) }, 200))
  return app
}
