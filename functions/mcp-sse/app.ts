import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { authChallenge } from './auth-challenge.ts'
import { registerMcpDelete } from './routes/mcp/delete.ts'
import { registerMcpGet } from './routes/mcp/get.ts'
import { registerMcpPost } from './routes/mcp/post.ts'
import { registerOAuthAuthorize } from './routes/oauth/authorize.ts'
import { registerAuthorizationServerMetadata } from './routes/oauth/metadata.ts'
import { registerOpenIdConfiguration } from './routes/oauth/openid-configuration.ts'
import { registerOAuthRegister } from './routes/oauth/register.ts'
import { registerOAuthRevoke } from './routes/oauth/revoke.ts'
import { registerOAuthToken } from './routes/oauth/token.ts'
import { registerOAuthClientDelete } from './routes/oauth-clients/delete.ts'
import { registerOAuthClientList } from './routes/oauth-clients/list.ts'
import { registerOAuthRequestDecide } from './routes/oauth-requests/decide.ts'
import { registerOAuthRequestGet } from './routes/oauth-requests/get.ts'
import { registerSseMessages } from './routes/sse/messages.ts'
import { registerSseOpen } from './routes/sse/open.ts'
import { registerExecuteTool } from './routes/tools/execute.ts'
import { registerListTools } from './routes/tools/list.ts'
import { registerProtectedResourceMetadata } from './routes/well-known/protected-resource.ts'
import { registerServerCard } from './routes/well-known/server-card.ts'
import { relayRateLimitToStream } from './sse-rate-limit.ts'

export const functionName = 'mcp-sse'

/**
 * The OAuth endpoints a browser-based MCP client (the Inspector in a browser) fetches
 * cross-origin, as the MCP authorization specification expects: both metadata documents (and
 * their path-appended forms), registration, token and revocation. Open to every origin without
 * credentials (createFunctionApp's openCors). Not /oauth/authorize (a navigation, not a fetch) and
 * not the consent API (the dashboard's, under CORS_ORIGINS with credentials).
 */
const OPEN_OAUTH_PATHS = ['/oauth/register', '/oauth/token', '/oauth/revoke']
const OPEN_METADATA = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/.well-known/mcp/server-card.json',
]
export const isOpenOAuthPath = (path: string) =>
  OPEN_OAUTH_PATHS.includes(path) || OPEN_METADATA.some((p) => path === p || path.startsWith(`${p}/`))

/**
 * The tool server at {mcp_url} (docs/mcp.md): MCP over Streamable HTTP at {mcp_url}, MCP over
 * HTTP+SSE at {mcp_url}/sse, and the REST form (tools/list, tools/execute), all with tool-server
 * keys (X-API-Key or Authorization: Bearer) at 100 requests per minute counted over all three.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tool server for agents (MCP and REST)', {
    // JSON-RPC bodies answer malformed JSON with JSON-RPC errors of their own.
    ownsBody: (path, method) => method === 'POST' && (path === '/' || path === '/sse/messages'),
    openCors: isOpenOAuthPath,
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
    registerServerCard,
    registerAuthorizationServerMetadata,
    registerOpenIdConfiguration,
    registerOAuthRegister,
    registerOAuthAuthorize,
    registerOAuthToken,
    registerOAuthRevoke,
    registerOAuthRequestGet,
    registerOAuthRequestDecide,
    registerOAuthClientList,
    registerOAuthClientDelete,
  ])
    register(app)
  return app
}
