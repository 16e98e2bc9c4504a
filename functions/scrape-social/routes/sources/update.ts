import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { sourceSchema, updateSourceBody } from '@shared/services/sources/schema.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { updateSource } from '@shared/services/sources/sources.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'patch',
  path: '/sources/{id}',
  summary: 'Change a source',
  description: 'Change a source: name, site, config (same kind), schedule, enabled',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateSourceBody } }, required: true },
  },
  responses: {
    200: jsonContent(sourceSchema, 'The source'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerUpdateSource = (app: App) =>
  app.openapi(route, async (c) => {
    const { source, unsubscribe } = await updateSource(
      serviceContext(c),
      c.req.valid('param').id,
      c.req.valid('json'),
    )
    // A paused source's hub is told now; the sweep does it if this instance stops first.
    if (unsubscribe) scrapeEngine(c.var.deps).kick([unsubscribe])
    return c.json(source, 200)
  })
