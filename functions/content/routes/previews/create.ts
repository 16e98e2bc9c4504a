import { createdPreviewLinkSchema, createPreviewSchema } from '@functions/content/preview-schema.ts'
import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { createPreview } from '@shared/services/content/previews.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/previews',
  meter: 'content',
  summary: 'Make a preview link to the article as it is now',
  description:
    'Make a preview link to the article as it is now, a draft or unpublished edits (content:write; editors: owners, admins, members)' +
    '\n\n' +
    `The answer carries the token once; GET /v1/content/previews/{token} reads the article without a key until the link expires (default 7 days, at most 30) or is revoked.${metered}`,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: createPreviewSchema } }, required: false },
  },
  responses: {
    201: jsonContent(createdPreviewLinkSchema, 'The link, with its token'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerCreatePreview = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await createPreview(ctx, c.req.valid('param').id, c.req.valid('json')), 201)
  })
