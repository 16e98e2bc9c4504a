import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { describeRequest } from '@shared/services/mcp-oauth/oauth-server.ts'

// The dashboard's side of MCP sign-in: what the consent page shows.

const requestSchema = z
  .object({
    id: z.uuid(),
    client_id: z.string(),
    client_name: z.string().openapi({ example: 'Claude' }),
    redirect_uri: z.string(),
    scopes: z.array(z.string()).openapi({ example: ['content:read', 'content:write'] }),
    resource: z.string(),
    tenant: z.object({ id: z.uuid(), name: z.string() }),
  })
  .openapi('McpAuthorizationRequest')

export const route = defineRoute(member, {
  method: 'get',
  path: '/oauth/requests/{id}',
  summary: 'An MCP client’s pending authorization request',
  description: 'An MCP client’s pending authorization request, for the consent page',
  request: { params: idParam },
  responses: { 200: jsonContent(requestSchema, 'The request'), ...errorResponses(401, 403, 404, 429) },
})

export const registerOAuthRequestGet = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await describeRequest(serviceContext(c), c.req.valid('param').id), 200),
  )
