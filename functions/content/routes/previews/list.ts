import { previewLinkSchema } from '@functions/content/preview-schema.ts'
import { metered } from '@functions/content/read-options.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { listPreviews } from '@shared/services/content/previews.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/previews',
  meter: 'content',
  summary: "The article's preview links",
  description:
    "The article's preview links, newest first, without their tokens (content:read)" + '\n\n' + metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(z.object({ data: z.array(previewLinkSchema) }), 'The links (at most 100)'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerListPreviews = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json({ data: await listPreviews(ctx, c.req.valid('param').id) }, 200)
  })
