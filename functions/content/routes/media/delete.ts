import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { deleteMedia } from '@shared/services/media/library.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'delete',
  path: '/media/{id}',
  meter: 'content',
  summary: 'Delete an image',
  description: `Delete an image and its stored file (content:write; a contributor its own uploads only); 409 while an article uses it, naming the articles.${metered}`,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerDeleteMedia = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    await deleteMedia(ctx, c.req.valid('param').id)
    return c.body(null, 204)
  })
