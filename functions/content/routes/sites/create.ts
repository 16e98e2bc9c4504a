import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { createSiteBody, siteSchema } from '@shared/services/content/schema.ts'
import { createSite } from '@shared/services/content/sites.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'post',
  path: '/sites',
  meter: 'content',
  summary: 'Add a site',
  description:
    'Add a site (content:write); event site.created. The slug is made from the name when absent; a taken slug is 409' +
    '\n\n' +
    metered,
  request: { body: { content: { 'application/json': { schema: createSiteBody } }, required: true } },
  responses: {
    201: jsonContent(siteSchema, 'Created'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export const registerCreateSite = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await createSite(ctx, c.req.valid('json')), 201)
  })
