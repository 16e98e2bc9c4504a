import { previewParams } from '@functions/content/preview-schema.ts'
import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { revokePreview } from '@shared/services/content/previews.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'delete',
  path: '/articles/{id}/previews/{preview_id}',
  meter: 'content',
  summary: 'Revoke a preview link',
  description:
    'Revoke a preview link (content:write; editors): its token answers 404 from now on' + '\n\n' + metered,
  request: { params: previewParams },
  responses: {
    204: { description: 'Revoked' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerRevokePreview = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { id, preview_id } = c.req.valid('param')
    await revokePreview(ctx, id, preview_id)
    return c.body(null, 204)
  })
