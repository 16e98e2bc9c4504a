import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { publishDueArticles } from '@shared/services/content/scheduler.ts'

const publishedSchema = z.object({ published: z.number().int() })

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/publish-scheduled',
  summary: 'Job: publish the scheduled articles that are due, each once (service role only)',
  responses: { 200: jsonContent(publishedSchema, 'How many were published'), ...errorResponses(401) },
})

export const registerPublishScheduledJob = (app: App) =>
  app.openapi(route, async (c) => c.json({ published: await publishDueArticles(depsOf(c)) }, 200))
