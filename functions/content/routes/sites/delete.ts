import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { deleteSite } from '@shared/services/content/sites.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'delete',
  path: '/sites/{id}',
  meter: 'content',
  summary: 'Remove a site and its articles',
  description: 'Remove a site and its articles (content:write); event site.deleted' + '\n\n' + metered,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerDeleteSite = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    await deleteSite(ctx, c.req.valid('param').id)
    return c.body(null, 204)
  })
