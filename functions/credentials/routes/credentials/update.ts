import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { updateCredential } from '@shared/services/credentials/credentials.ts'
import { credentialSchema, updateCredentialBody } from '@shared/services/credentials/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'patch',
  path: '/{id}',
  summary: "Change a credential's name, scopes or expiry",
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: updateCredentialBody } }, required: true },
  },
  responses: {
    200: jsonContent(credentialSchema, 'The updated credential'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerUpdateCredential = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateCredential(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
