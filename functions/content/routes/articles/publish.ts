import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { publishArticle } from '@shared/services/content/article-lifecycle.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/publish',
  meter: 'content',
  summary: 'Publish an article',
  description:
    'Publish an article (content:write); event content.published. Publishing again changes nothing' +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSchema, 'The published article'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerPublishArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await publishArticle(ctx, c.req.valid('param').id), 200)
  })
