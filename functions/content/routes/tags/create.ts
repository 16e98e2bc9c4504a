import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { createTagBody, tagSchema } from '@shared/services/content/schema.ts'
import { createTag } from '@shared/services/content/tags.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/tags',
  meter: 'content',
  summary: 'Create a tag',
  description:
    'Create a tag (content:write); its slug is made from the name when absent. 409 when the slug is taken' +
    '\n\n' +
    metered,
  request: { body: { content: { 'application/json': { schema: createTagBody } }, required: true } },
  responses: {
    201: jsonContent(tagSchema, 'The tag'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export const registerCreateTag = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await createTag(ctx, c.req.valid('json')), 201)
  })
