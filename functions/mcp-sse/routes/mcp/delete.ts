import { statelessMethodNotAllowed } from '@functions/mcp-sse/stateless.ts'
import { checkOrigin, toolAuth } from '@functions/mcp-sse/tool-auth.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'

export const route = defineRoute(toolAuth, {
  method: 'delete',
  path: '/',
  summary: 'MCP Streamable HTTP: no sessions to end (405)',
  description:
    'Stateless: no Mcp-Session-Id is issued, so there is nothing to terminate (405, as the MCP specification allows).',
  responses: { 405: { description: 'Method Not Allowed' }, ...errorResponses(401, 403, 429) },
})

export const registerMcpDelete = (app: App) =>
  app.openapi(route, (c) => {
    checkOrigin(c)
    return statelessMethodNotAllowed() as never
  })
