import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { tagSchema, updateTagBody } from '@shared/services/content/schema.ts'
import { updateTag } from '@shared/services/content/tags.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'patch',
  path: '/tags/{id}',
  meter: 'content',
  summary: 'Rename a tag or change its slug',
  description:
    'Rename a tag or change its slug (content:write); 409 when the slug is taken' + '\n\n' + metered,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateTagBody } }, required: true },
  },
  responses: {
    200: jsonContent(tagSchema, 'The tag'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerUpdateTag = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await updateTag(ctx, c.req.valid('param').id, c.req.valid('json')), 200)
  })
