import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { unpublishArticle } from '@shared/services/content/article-lifecycle.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/unpublish',
  meter: 'content',
  summary: 'Take a published or scheduled article back to draft',
  description:
    'Take a published or scheduled article back to draft (content:write); event content.unpublished. A draft is returned as is' +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSchema, 'The article, now a draft'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerUnpublishArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await unpublishArticle(ctx, c.req.valid('param').id), 200)
  })
