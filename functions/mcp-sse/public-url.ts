import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { publicRoutes } from '@shared/infra/http/public-routes.ts'
import type { Context } from 'hono'

const FUNCTION_NAME = 'mcp-sse'

/**
 * The tool server's public address, {mcp_url}: what OAuth clients see as the protected resource
 * (RFC 8707 `resource`, a token's audience) and the authorization server's issuer.
 * MCP_PUBLIC_URL when set; otherwise the address this request used, up to the function's own
 * path (`http://127.0.0.1:54321/mcp` locally, `.../functions/v1/mcp-sse` on the platform URL).
 * Supabase's edge runtime passes `/mcp-sse/...`: that is `{SUPABASE_URL}/functions/v1/mcp-sse`.
 */
export function mcpUrl(c: Context<AppEnv>): string {
  const config = c.var.deps.config
  if (config.MCP_PUBLIC_URL) return config.MCP_PUBLIC_URL.replace(/\/+$/, '')
  const url = new URL(c.req.url)
  const path = url.pathname
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`)
  if (under(`/functions/v1/${FUNCTION_NAME}`)) return `${url.origin}/functions/v1/${FUNCTION_NAME}`
  if (under(`/${FUNCTION_NAME}`))
    return `${(config.SUPABASE_URL ?? url.origin).replace(/\/+$/, '')}/functions/v1/${FUNCTION_NAME}`
  // The route table's public prefix of the tool server ('/mcp'); the RFC 9728 form of the
  // metadata address carries it after the well-known part.
  const publicPrefix = publicRoutes.find((r) => r.fn === FUNCTION_NAME && r.path === '')!.prefix
  return `${url.origin}${publicPrefix}`
}

/** Where the protected resource metadata is served for {mcp_url} (named in WWW-Authenticate). */
export const resourceMetadataUrl = (c: Context<AppEnv>) => `${mcpUrl(c)}/.well-known/oauth-protected-resource`
