import { cached, formatsQuery, localeQuery, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { getLocalizedArticle } from '@shared/services/content/localized-reads.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/articles/{id}',
  meter: 'content',
  summary: 'One article with its body',
  description:
    'One article with its body (content:read; a published-only key sees published articles only)' +
    '\n\n' +
    `${metered}${cached}`,
  request: { params: idParam, query: z.object({ formats: formatsQuery, locale: localeQuery }) },
  responses: {
    200: jsonContent(articleSchema, 'The article'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { formats, locale } = c.req.valid('query')
    return answerRead(c, () => getLocalizedArticle(ctx, c.req.valid('param').id, formats, locale ?? null))
  })
