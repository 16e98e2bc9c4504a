import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { deleteAlert } from '@shared/services/usage/alerts.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/alerts/{id}',
  summary: 'Delete a usage alert (owners and admins)',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteAlert = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteAlert(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
