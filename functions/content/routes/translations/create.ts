import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { articleSchema } from '@shared/services/content/schema.ts'
import { createTranslation, createTranslationBody } from '@shared/services/content/translations.ts'

export const route = defineRoute(memberOrKey('content:write'), {
  method: 'post',
  path: '/articles/{id}/translations',
  meter: 'content',
  summary: "Create a draft translation in a site's locale",
  description:
    "Create a draft translation of the article in one of its site's locales (content:write); event content.updated" +
    '\n\n' +
    `The draft starts from the source's fields with those given over them, and has its own slug, state, revisions and schedule. A locale the site does not offer is 400 naming locale; a locale the article has a translation in is 409 naming locale.${metered}`,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: createTranslationBody } }, required: true },
  },
  responses: {
    201: jsonContent(articleSchema, 'The draft translation'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerCreateTranslation = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await createTranslation(ctx, c.req.valid('param').id, c.req.valid('json')), 201)
  })
