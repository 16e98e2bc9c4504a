import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { revokeConnectedClient } from '@shared/services/mcp-oauth/oauth-server.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/oauth/clients/{id}',
  summary: 'Revoke a connected MCP client',
  description:
    'Revoke a connected MCP client: its tokens are refused from the next request, on every instance',
  request: { params: idParam },
  responses: { 204: { description: 'Revoked' }, ...errorResponses(401, 403, 404, 429) },
})

export const registerOAuthClientDelete = (app: App) =>
  app.openapi(route, async (c) => {
    await revokeConnectedClient(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
