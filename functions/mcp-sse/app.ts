import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { authChallenge } from './auth-challenge.ts'
import { registerMcpDelete } from './routes/mcp/delete.ts'
import { registerMcpGet } from './routes/mcp/get.ts'
import { registerMcpPost } from './routes/mcp/post.ts'
import { registerOAuthConsent } from './routes/oauth/consent.ts'
import { registerOAuthEndpoints } from './routes/oauth/endpoints.ts'
import { registerAuthorizationServerMetadata } from './routes/oauth/metadata.ts'
import { registerSseMessages } from './routes/sse/messages.ts'
import { registerSseOpen } from './routes/sse/open.ts'
import { registerExecuteTool } from './routes/tools/execute.ts'
import { registerListTools } from './routes/tools/list.ts'
import { registerProtectedResourceMetadata } from './routes/well-known/protected-resource.ts'
import { relayRateLimitToStream } from './sse-rate-limit.ts'

export const functionName = 'mcp-sse'

/**
 * The tool server at {mcp_url} (docs/mcp.md): MCP over Streamable HTTP at {mcp_url}, MCP over
 * HTTP+SSE at {mcp_url}/sse, and the REST form (tools/list, tools/execute), all with tool-server
 * keys (X-API-Key or Authorization: Bearer) at 100 requests per minute counted over all three.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tool server for agents (MCP and REST)', {
    // JSON-RPC bodies answer malformed JSON with JSON-RPC errors of their own.
    ownsBody: (path, method) => method === 'POST' && (path === '/' || path === '/sse/messages'),
  })
  app.use('*', authChallenge())
  app.use('/sse/messages', relayRateLimitToStream())
  for (const register of [
    registerMcpPost,
    registerMcpGet,
    registerMcpDelete,
    registerSseOpen,
    registerSseMessages,
    registerListTools,
    registerExecuteTool,
    registerProtectedResourceMetadata,
    registerAuthorizationServerMetadata,
    registerOAuthEndpoints,
    registerOAuthConsent,
  ])
    register(app)
  return app
}
