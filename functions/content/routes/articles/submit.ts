import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { submitForReview } from '@shared/services/content/article-lifecycle.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/submit',
  meter: 'content',
  summary: 'Submit a draft for review',
  description:
    'Submit a draft for review (content:write): sets review_requested_at, which publishing or scheduling clears; event content.updated. A contributor submits its own drafts; a published or scheduled article is 409' +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleSchema, 'The article, submitted for review'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerSubmitArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await submitForReview(ctx, c.req.valid('param').id), 200)
  })
