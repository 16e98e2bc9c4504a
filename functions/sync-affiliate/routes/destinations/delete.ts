import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { deleteDestination } from '@shared/services/affiliate/destinations.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'delete',
  path: '/destinations/{id}',
  summary: 'Delete a destination, its programs and its products',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteDestination = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteDestination(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
