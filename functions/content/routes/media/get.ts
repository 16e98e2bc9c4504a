import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { getMedia } from '@shared/services/media/library.ts'
import { mediaSchema } from '@shared/services/media/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/media/{id}',
  meter: 'content',
  summary: 'Read one image',
  description: `Read one image of the media library, with a signed URL of the original (content:read).${metered}`,
  request: { params: idParam },
  responses: {
    200: jsonContent(mediaSchema, 'The image'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetMedia = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await getMedia(ctx, c.req.valid('param').id), 200)
  })
