import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { editorOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { siteSchema, updateSiteBody } from '@shared/services/content/schema.ts'
import { updateSite } from '@shared/services/content/sites.ts'

export const route = defineRoute(editorOrKey('content:write'), {
  method: 'patch',
  path: '/sites/{id}',
  meter: 'content',
  summary: "Change a site's name",
  description:
    "Change a site's name, slug or domain (content:write; domain null removes it); a slug another site of the tenant holds is 409" +
    '\n\n' +
    metered,
  request: {
    params: idParam,
    body: {
      content: {
        'application/json': { schema: updateSiteBody, example: { name: 'Engineering blog', domain: null } },
      },
      required: true,
    },
  },
  responses: {
    200: jsonContent(siteSchema, 'The site'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
})

export const registerUpdateSite = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    return c.json(await updateSite(ctx, c.req.valid('param').id, c.req.valid('json')), 200)
  })
