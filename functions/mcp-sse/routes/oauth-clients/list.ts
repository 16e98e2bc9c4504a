import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listConnectedClients } from '@shared/services/mcp-oauth/oauth-server.ts'
import { toolListingSchema } from '@shared/services/tools/tool-listing.ts'
import { toolSubsetSchema } from '@shared/services/tools/tool-subset.ts'

const clientSchema = z
  .object({
    id: z.uuid(),
    client_id: z.string(),
    client_name: z.string().openapi({ example: 'Claude' }),
    user_id: z.uuid(),
    scopes: z.array(z.string()),
    tool_subset: toolSubsetSchema.nullable(),
    tool_listing: toolListingSchema,
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .openapi('ConnectedMcpClient')
const clientListSchema = z.object({ data: z.array(clientSchema) })

export const route = defineRoute(member, {
  method: 'get',
  path: '/oauth/clients',
  summary: 'The MCP clients connected to this tenant by OAuth',
  description: 'The MCP clients connected to this tenant by OAuth, newest first (also /api/mcp-clients)',
  responses: { 200: jsonContent(clientListSchema, 'Connected clients'), ...errorResponses(401, 403, 429) },
})

export const registerOAuthClientList = (app: App) =>
  app.openapi(route, async (c) => c.json({ data: await listConnectedClients(serviceContext(c)) }, 200))
