import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { listMedia } from '@shared/services/media/library.ts'
import { mediaListQuery, mediaListSchema } from '@shared/services/media/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/media',
  meter: 'content',
  summary: 'List the media library',
  description: `List the tenant's media library, newest first, with \`q\` searching file names, alt texts and captions (content:read).${metered}`,
  request: { query: mediaListQuery },
  responses: {
    200: jsonContent(mediaListSchema, 'A page of images'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListMedia = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { limit, cursor, q } = c.req.valid('query')
    return c.json(await listMedia(ctx, { limit, after: decodeCursor(cursor), q }), 200)
  })
