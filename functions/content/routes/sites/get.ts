import { cached, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { siteDetailSchema } from '@shared/services/content/schema.ts'
import { getSiteDetail } from '@shared/services/content/sites.ts'

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/sites/{id}',
  meter: 'content',
  summary: 'One site with the counts of what it holds',
  description:
    'One site with the counts of what it holds: what deleting it removes (content:read)' +
    '\n\n' +
    `${metered}${cached} A published-only key gets the site without its counts.`,
  request: { params: idParam },
  responses: {
    200: jsonContent(siteDetailSchema, 'The site'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetSite = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return answerRead(c, () => getSiteDetail(ctx, c.req.valid('param').id))
  })
