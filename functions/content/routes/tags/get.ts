import { cached, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { tagSchema } from '@shared/services/content/schema.ts'
import { getTag } from '@shared/services/content/tags.ts'

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/tags/{id}',
  meter: 'content',
  summary: 'One tag (content:read)',
  description: `${metered}${cached}`,
  request: { params: idParam },
  responses: {
    200: jsonContent(tagSchema, 'The tag'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetTag = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return answerRead(c, () => getTag(ctx, c.req.valid('param').id))
  })
