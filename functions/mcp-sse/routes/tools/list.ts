import { checkOrigin, keyScopes, toolAuth } from '@functions/mcp-sse/tool-auth.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { listTools } from '@shared/services/tools/tool-set.ts'

const toolSchema = z
  .object({
    name: z.string().openapi({ example: 'slack:post_message' }),
    alias: z.string().openapi({ description: 'The MCP name', example: 'slack__post_message' }),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
    connection_id: z.uuid().nullable(),
  })
  .openapi('Tool')

const toolListSchema = z.object({ tools: z.array(toolSchema) })

export const route = defineRoute(toolAuth, {
  method: 'get',
  path: '/tools/list',
  summary: 'The tools available to this key',
  responses: { 200: jsonContent(toolListSchema, 'Tools'), ...errorResponses(401, 403, 429) },
})

export const registerListTools = (app: App) =>
  app.openapi(route, async (c) => {
    checkOrigin(c)
    const tools = await listTools(serviceContext(c), keyScopes(c))
    return c.json(
      {
        tools: tools.map((t) => ({
          name: t.name,
          alias: t.mcpName,
          description: t.description,
          inputSchema: t.inputSchema,
          connection_id: t.connection?.id ?? null,
        })),
      },
      200,
    )
  })
