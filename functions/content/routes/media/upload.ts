import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { uploadMedia } from '@shared/services/media/library.ts'
import { mediaSchema, uploadMediaForm } from '@shared/services/media/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'post',
  path: '/media',
  meter: 'content',
  summary: 'Upload an image',
  description: `Upload an image to the media library (content:write): JPEG, PNG, WebP, GIF, AVIF or SVG, recognised from its bytes; 413 over the plan's file size, 429 QUOTA_EXCEEDED over its storage, 415 for anything else, 422 for an SVG with script or links.${metered}`,
  request: {
    body: { content: { 'multipart/form-data': { schema: uploadMediaForm } }, required: true },
  },
  responses: {
    201: jsonContent(mediaSchema, 'The stored image'),
    ...errorResponses(400, 401, 403, 413, 415, 422, 429),
  },
})

export const registerUploadMedia = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const form = c.req.valid('form')
    const media = await uploadMedia(ctx, {
      bytes: new Uint8Array(await form.file.arrayBuffer()),
      fileName: form.file.name,
      altText: form.alt_text,
      caption: form.caption,
    })
    return c.json(media, 201)
  })
