import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { cancelSchedule } from '@shared/services/content/article-lifecycle.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'delete',
  path: '/articles/{id}/schedule',
  meter: 'content',
  summary: 'Cancel a schedule',
  description:
    'Cancel a schedule (content:write): the article goes back to draft, event content.unpublished. A draft is returned as is; a published article is 409' +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSchema, 'The article, a draft'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerCancelSchedule = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await cancelSchedule(ctx, c.req.valid('param').id), 200)
  })
