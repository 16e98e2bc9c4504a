import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { updateMedia } from '@shared/services/media/library.ts'
import { mediaSchema, updateMediaBody } from '@shared/services/media/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'patch',
  path: '/media/{id}',
  meter: 'content',
  summary: `Change an image's alt text or caption`,
  description: `Change an image's alt text or caption (content:write; a contributor its own uploads only).${metered}`,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateMediaBody } }, required: true },
  },
  responses: {
    200: jsonContent(mediaSchema, 'The image'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerUpdateMedia = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await updateMedia(ctx, c.req.valid('param').id, c.req.valid('json')), 200)
  })
