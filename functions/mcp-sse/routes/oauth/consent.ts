import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member, ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import {
  decideRequest,
  describeRequest,
  listConnectedClients,
  revokeConnectedClient,
} from '@shared/services/mcp-oauth/oauth-server.ts'
import { toolSubsetSchema } from '@shared/services/tools/tool-subset.ts'

// The dashboard's side of MCP sign-in: the consent page, and the tenant's connected clients.

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

export const requestRoute = defineRoute(member, {
  method: 'get',
  path: '/oauth/requests/{id}',
  summary: 'An MCP client’s pending authorization request, for the consent page',
  request: { params: idParam },
  responses: { 200: jsonContent(requestSchema, 'The request'), ...errorResponses(401, 403, 404, 429) },
})

const decisionBody = z
  .object({
    approve: z.boolean(),
    tool_subset: toolSubsetSchema.nullable().optional().openapi({
      description:
        'Limits the grant to these connections and tools (docs/mcp.md); absent or null: every tool',
    }),
  })
  .strict()
  .openapi({ example: { approve: true } })
const decisionSchema = z.object({ redirect_to: z.string().url() })

export const decisionRoute = defineRoute(member, {
  method: 'post',
  path: '/oauth/requests/{id}/decision',
  summary: 'Approve (owners and admins) or decline an MCP client’s request; where the browser goes next',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: decisionBody } }, required: true },
  },
  responses: {
    200: jsonContent(decisionSchema, 'The client’s redirect URI with a code or an error'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

const clientSchema = z
  .object({
    id: z.uuid(),
    client_id: z.string(),
    client_name: z.string().openapi({ example: 'Claude' }),
    user_id: z.uuid(),
    scopes: z.array(z.string()),
    tool_subset: toolSubsetSchema.nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .openapi('ConnectedMcpClient')
const clientListSchema = z.object({ data: z.array(clientSchema) })

export const listRoute = defineRoute(member, {
  method: 'get',
  path: '/oauth/clients',
  summary: 'The MCP clients connected to this tenant by OAuth, newest first (also /api/mcp-clients)',
  responses: { 200: jsonContent(clientListSchema, 'Connected clients'), ...errorResponses(401, 403, 429) },
})

export const revokeClientRoute = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/oauth/clients/{id}',
  summary: 'Revoke a connected MCP client: its tokens are refused from the next request, on every instance',
  request: { params: idParam },
  responses: { 204: { description: 'Revoked' }, ...errorResponses(401, 403, 404, 429) },
})

export type McpAuthorizationRequest = z.infer<typeof requestSchema>
export type ConnectedMcpClients = z.infer<typeof clientListSchema>

export const registerOAuthConsent = (app: App) => {
  app.openapi(requestRoute, async (c) =>
    c.json(await describeRequest(serviceContext(c), c.req.valid('param').id), 200),
  )
  app.openapi(decisionRoute, async (c) =>
    c.json(
      await decideRequest(serviceContext(c), c.req.valid('param').id, c.req.valid('json').approve, {
        toolSubset: c.req.valid('json').tool_subset ?? null,
      }),
      200,
    ),
  )
  app.openapi(listRoute, async (c) => c.json({ data: await listConnectedClients(serviceContext(c)) }, 200))
  app.openapi(revokeClientRoute, async (c) => {
    await revokeConnectedClient(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
}
