import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { deleteTag } from '@shared/services/content/tags.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'delete',
  path: '/tags/{id}',
  meter: 'content',
  summary: 'Delete a tag',
  description:
    'Delete a tag (content:write); the articles that carried it keep their other tags' + '\n\n' + metered,
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerDeleteTag = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    await deleteTag(ctx, c.req.valid('param').id)
    return c.body(null, 204)
  })
