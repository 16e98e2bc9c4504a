import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { createArticle } from '@shared/services/content/articles.ts'
import { articleSchema, createArticleBody } from '@shared/services/content/schema.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'post',
  path: '/articles',
  meter: 'content',
  summary: 'Create a draft article in a site',
  description:
    'Create a draft article in a site (content:write); event content.updated. The slug is made from the title when absent; a slug another article of the site holds is 409 naming it' +
    '\n\n' +
    metered,
  request: { body: { content: { 'application/json': { schema: createArticleBody } }, required: true } },
  responses: {
    201: jsonContent(articleSchema, 'Created'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerCreateArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await createArticle(ctx, c.req.valid('json')), 201)
  })
