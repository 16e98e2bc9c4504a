import { cached, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import { revisionParams } from '@functions/content/revision-params.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { getRevision } from '@shared/services/content/revisions.ts'
import { articleRevisionSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/revisions/{revision_id}',
  meter: 'content',
  summary: 'One revision with all its fields',
  description:
    'One revision with all its fields (content:read; not a published-only key)' +
    '\n\n' +
    `${metered}${cached}`,
  request: { params: revisionParams },
  responses: {
    200: jsonContent(articleRevisionSchema, 'The revision'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetRevision = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { id, revision_id } = c.req.valid('param')
    return answerRead(c, () => getRevision(ctx, id, revision_id))
  })
