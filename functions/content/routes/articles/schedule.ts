import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { scheduleArticle } from '@shared/services/content/article-lifecycle.ts'
import { articleSchema, scheduleArticleBody } from '@shared/services/content/schema.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/schedule',
  meter: 'content',
  summary: 'Schedule a draft',
  description:
    'Schedule a draft, or reschedule a scheduled article (content:write); event content.scheduled. publish_at must lie in the future (400 otherwise); a published article is 409' +
    '\n\n' +
    `${metered} The article is published within a minute of publish_at, once, with content.published.`,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: scheduleArticleBody } }, required: true },
  },
  responses: {
    200: jsonContent(articleSchema, 'The scheduled article'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerScheduleArticle = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { publish_at, unpublish_at } = c.req.valid('json')
    const unpublishAt = unpublish_at ? new Date(unpublish_at) : undefined
    return c.json(await scheduleArticle(ctx, c.req.valid('param').id, new Date(publish_at), unpublishAt), 200)
  })
