import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { updateArticle } from '@shared/services/content/articles.ts'
import { articleSchema, updateArticleBody } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'patch',
  path: '/articles/{id}',
  meter: 'content',
  summary: "Change any of an article's fields",
  description:
    "Change any of an article's fields (content:write); event content.updated and a new revision when something changed. A slug another article of the site holds is 409 naming it" +
    '\n\n' +
    metered,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateArticleBody } }, required: true },
  },
  responses: {
    200: jsonContent(articleSchema, 'The article'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerUpdateArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await updateArticle(ctx, c.req.valid('param').id, c.req.valid('json')), 200)
  })
