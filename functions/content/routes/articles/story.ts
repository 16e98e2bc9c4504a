import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { articleStory } from '@shared/services/content/story.ts'
import { articleStorySchema } from '@shared/services/content/story-schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/story',
  meter: 'content',
  summary: "An article's path in order",
  description:
    "An article's path in order (content:read): its source items, the automation run and conversation, revisions, approvals, schedule, publish and webhook deliveries, each with its record" +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(articleStorySchema, 'The steps, oldest first'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerArticleStory = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await articleStory(ctx, c.req.valid('param').id), 200)
  })
