import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { returnForChanges } from '@shared/services/content/article-review.ts'
import { articleSchema, returnArticleBody } from '@shared/services/content/schema.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/return',
  meter: 'content',
  summary: 'Return a draft to its writer with a note',
  description: `Return a draft waiting for review to its writer with a note (content:write, editors): clears review_requested_at, sets review_return and e-mails the author; event content.updated. An article not waiting for review is 409.${metered} The writer reads the note on the article (review_return) until submitting it again.`,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: returnArticleBody } }, required: true },
  },
  responses: {
    200: jsonContent(articleSchema, 'The draft, returned to its writer'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerReturnArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await returnForChanges(ctx, c.req.valid('param').id, c.req.valid('json').note), 200)
  })
