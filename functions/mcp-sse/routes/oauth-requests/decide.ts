import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decideRequest } from '@shared/services/mcp-oauth/oauth-server.ts'
import { toolListingSchema } from '@shared/services/tools/tool-listing.ts'
import { toolSubsetSchema } from '@shared/services/tools/tool-subset.ts'

const decisionBody = z
  .object({
    approve: z.boolean(),
    tool_subset: toolSubsetSchema.nullable().optional().openapi({
      description:
        'Limits the grant to these connections and tools (docs/mcp.md); absent or null: every tool',
    }),
    tool_listing: toolListingSchema.default('all').openapi({
      description: "'search': the client is offered search_tools and call_tool instead of every tool",
    }),
  })
  .strict()
  .openapi({ example: { approve: true } })
const decisionSchema = z.object({ redirect_to: z.string().url() })

export const route = defineRoute(member, {
  method: 'post',
  path: '/oauth/requests/{id}/decision',
  summary: 'Approve or decline an MCP client’s request',
  description: 'Approve (owners and admins) or decline an MCP client’s request; where the browser goes next',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: decisionBody } }, required: true },
  },
  responses: {
    200: jsonContent(decisionSchema, 'The client’s redirect URI with a code or an error'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerOAuthRequestDecide = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(
      await decideRequest(serviceContext(c), c.req.valid('param').id, c.req.valid('json').approve, {
        toolSubset: c.req.valid('json').tool_subset ?? null,
        toolListing: c.req.valid('json').tool_listing,
      }),
      200,
    ),
  )
