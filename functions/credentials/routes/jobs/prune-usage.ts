import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { pruneCredentialUsage } from '@shared/services/credentials/credential-usage.ts'

const countSchema = z.object({ deleted: z.number().int() })

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/prune-usage',
  summary: 'Job (daily): delete usage records past their retention',
  responses: { 200: jsonContent(countSchema, 'Count'), ...errorResponses(401) },
})

export const registerPruneUsageJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await pruneCredentialUsage(depsOf(c)), 200))
