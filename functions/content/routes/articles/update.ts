import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { updateArticle } from '@shared/services/content/articles.ts'
import { articleSchema, updateArticleBody } from '@shared/services/content/schema.ts'
import { meterUsage } from '@shared/services/usage/metering.ts'
import { metered, writeAuth } from '../auth.ts'

export const route = defineRoute(writeAuth, {
  method: 'patch',
  path: '/articles/{id}',
  summary: 'Change the title or body (content:write); event content.updated when something changed',
  description: metered,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateArticleBody } }, required: true },
  },
  responses: {
    200: jsonContent(articleSchema, 'The article'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export type UpdateArticleResponse = z.infer<typeof articleSchema>

export const registerUpdateArticle = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    await meterUsage(ctx, 'content')
    return c.json(await updateArticle(ctx, c.req.valid('param').id, c.req.valid('json')), 200)
  })
