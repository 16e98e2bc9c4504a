import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { deleteCredential } from '@shared/services/credentials/credentials.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a credential and its usage records',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteCredential = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteCredential(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
