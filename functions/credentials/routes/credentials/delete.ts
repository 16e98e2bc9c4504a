import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { deleteCredential } from '@shared/services/credentials/credentials.ts'
import { writeAuth } from '../auth.ts'

export const route = defineRoute(writeAuth, {
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a credential and its usage records',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

/** No body: 204. */
export type DeleteCredentialResponse = null

export const registerDeleteCredential = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteCredential(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
