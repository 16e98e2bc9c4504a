import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { listTranslations, translationListSchema } from '@shared/services/content/translations.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/articles/{id}/translations',
  meter: 'content',
  summary: "The article's translation group with each one's state",
  description:
    "The article's translation group with each one's state: its source first, then by locale (content:read)" +
    '\n\n' +
    metered,
  request: { params: idParam },
  responses: {
    200: jsonContent(translationListSchema, 'The source and its translations'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerListTranslations = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json({ data: await listTranslations(ctx, c.req.valid('param').id) }, 200)
  })
