import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { deleteSource } from '@shared/services/sources/sources.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'delete',
  path: '/sources/{id}',
  summary: 'Delete a source and its items',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteSource = (app: App) =>
  app.openapi(route, async (c) => {
    const { unsubscribe } = await deleteSource(serviceContext(c), c.req.valid('param').id)
    // The hub is told now; the sweep does it if this instance stops first.
    if (unsubscribe) scrapeEngine(c.var.deps).kick([unsubscribe])
    return c.body(null, 204)
  })
