import { cached, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { MAX_REVISIONS } from '@shared/services/content/revision-store.ts'
import { listRevisions } from '@shared/services/content/revisions.ts'
import { articleRevisionListSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/revisions',
  meter: 'content',
  summary: "An article's revisions, newest first",
  description: `An article's revisions, newest first: one per save, the newest ${MAX_REVISIONS} kept (content:read; not a published-only key)\n\n${metered}${cached}`,
  request: { params: idParam, query: pageQuery },
  responses: {
    200: jsonContent(articleRevisionListSchema, 'A page of revisions'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerListRevisions = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { limit, cursor } = c.req.valid('query')
    return answerRead(c, () =>
      listRevisions(ctx, c.req.valid('param').id, { limit, after: decodeCursor(cursor) }),
    )
  })
