import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { publishDueArticles, unpublishDueArticles } from '@shared/services/content/scheduler.ts'

const publishedSchema = z.object({
  published: z.number().int(),
  unpublished: z.number().int().openapi({ description: 'Published articles whose unpublish_at had come' }),
})

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/publish-scheduled',
  summary: 'Job: publish the scheduled articles that are due',
  description:
    'Job: publish the scheduled articles that are due, and unpublish those whose unpublish_at has come, each once (service role only)',
  responses: { 200: jsonContent(publishedSchema, 'How many were published'), ...errorResponses(401) },
})

export const registerPublishScheduledJob = (app: App) =>
  app.openapi(route, async (c) => {
    // Publishing first: an article whose window opened and closed since the last run goes live
    // and comes down again, each with its event.
    const published = await publishDueArticles(depsOf(c))
    return c.json({ published, unpublished: await unpublishDueArticles(depsOf(c)) }, 200)
  })
