import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { pruneRetention } from '@shared/services/retention/retention.ts'

const pruneRetentionResult = z.object({
  webhook_deliveries: z.number(),
  webhook_attempts: z.number(),
  outbox_events: z.number(),
  tool_usage: z.number(),
})

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/prune-retention',
  summary: 'Job: prune finished webhook deliveries',
  description:
    'Job: prune finished webhook deliveries, outbox events and tool usage past retention, rolling up aggregates (service role only)',
  responses: { 200: jsonContent(pruneRetentionResult, 'Counts'), ...errorResponses(401) },
})

export const registerPruneRetentionJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await pruneRetention(c.var.deps), 200))
