import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContextForTenant } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { serverFunctionAuth } from '@shared/infra/http/route-auth.ts'
import { generationEngine, queueGeneration } from '@shared/services/generation/generate.ts'
import { generateArticleBody } from '@shared/services/generation/schema.ts'
import { acceptedJob } from '@shared/services/jobs/jobs.ts'
import { acceptedJobSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(serverFunctionAuth, {
  method: 'post',
  path: '/',
  summary: 'Write a draft article from scraped items',
  description:
    "Write a draft article from scraped items with the tenant's AI provider: answers 202 with the job (429 QUOTA_EXCEEDED when the Assistant API quota is used up)",
  request: { body: { content: { 'application/json': { schema: generateArticleBody } }, required: true } },
  responses: {
    202: jsonContent(acceptedJobSchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 413, 422, 429),
  },
})

export const registerGenerate = (app: App) =>
  app.openapi(route, async (c) => {
    const body = c.req.valid('json')
    const ctx = await serviceContextForTenant(c, body.tenant_id)
    const job = await queueGeneration(ctx, body)
    generationEngine(c.var.deps).kick([job.id])
    return c.json(acceptedJob(job), 202)
  })
