import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { getArticle } from '@shared/services/content/articles.ts'
import { articleSchema } from '@shared/services/content/schema.ts'
import { meterUsage } from '@shared/services/usage/metering.ts'
import { metered, readAuth } from '../auth.ts'

export const route = defineRoute(readAuth, {
  method: 'get',
  path: '/articles/{id}',
  summary: 'One article with its body (content:read)',
  description: metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSchema, 'The article'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type GetArticleResponse = z.infer<typeof articleSchema>

export const registerGetArticle = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    await meterUsage(ctx, 'content')
    return c.json(await getArticle(ctx, c.req.valid('param').id), 200)
  })
