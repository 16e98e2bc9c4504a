import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { deleteArticle } from '@shared/services/content/articles.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'delete',
  path: '/articles/{id}',
  meter: 'content',
  summary: 'Delete an article (content:write); event content.updated',
  description: metered,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerDeleteArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    await deleteArticle(ctx, c.req.valid('param').id)
    return c.body(null, 204)
  })
