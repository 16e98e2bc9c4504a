import { metered } from '@functions/content/read-options.ts'
import { revisionParams } from '@functions/content/revision-params.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { restoreRevision } from '@shared/services/content/revisions.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/revisions/{revision_id}/restore',
  meter: 'content',
  summary: 'Restore a revision',
  description:
    "Restore a revision (content:write): its fields become the article's again, as a new revision; event content.updated. A slug taken since is 409" +
    '\n\n' +
    metered,
  request: { params: revisionParams },
  responses: {
    200: jsonContent(articleSchema, 'The article'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerRestoreRevision = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { id, revision_id } = c.req.valid('param')
    return c.json(await restoreRevision(ctx, id, revision_id), 200)
  })
