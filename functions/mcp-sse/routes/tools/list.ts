import { z } from '@hono/zod-openapi'
import type { App } from '../../../../shared/infra/http/app-env.ts'
import { defineRoute } from '../../../../shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '../../../../shared/infra/http/openapi.ts'
import { describeTool, platformTools } from '../../../../shared/services/tools/platform-tools.ts'
import { keyScopes, toolAuth } from './auth.ts'

const toolSchema = z
  .object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })
  .openapi('Tool')

const toolListSchema = z.object({ tools: z.array(toolSchema) })

export const route = defineRoute(toolAuth, {
  method: 'get',
  path: '/tools/list',
  summary: 'The tools available to this key',
  responses: { 200: jsonContent(toolListSchema, 'Tools'), ...errorResponses(401, 429) },
})

export type ListToolsResponse = z.infer<typeof toolListSchema>

export const registerListTools = (app: App) =>
  app.openapi(route, (c) => {
    const scopes = keyScopes(c)
    return c.json({ tools: platformTools.filter((t) => scopes.includes(t.scope)).map(describeTool) }, 200)
  })
