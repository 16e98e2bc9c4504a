import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { listArticleSources } from '@shared/services/content/article-reads.ts'
import { articleSourcesSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/sources',
  meter: 'content',
  summary: 'The scraped items a generated article was written from',
  description:
    'The scraped items a generated article was written from (content:read); empty for one written by hand' +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSourcesSchema, 'The source items'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerArticleSources = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json({ data: await listArticleSources(ctx, c.req.valid('param').id) }, 200)
  })
