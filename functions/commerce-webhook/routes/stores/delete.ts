import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { deleteStore } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/stores/{id}',
  summary: 'Disconnect a store',
  description: 'Disconnect a store, deleting its deliveries, orders and products',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteStore = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteStore(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
