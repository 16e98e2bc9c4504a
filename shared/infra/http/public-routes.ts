/**
 * The one route table: each public prefix of the spec and the function that serves it.
 * `path` is where the prefix lands inside the function. The local platform routes by it, and
 * the README gives the same table as rewrite rules for a production proxy in front of Supabase.
 * Longest prefix wins.
 */
export interface PublicRoute {
  prefix: string
  fn: string
  path: string
}

export const publicRoutes: PublicRoute[] = [
  { prefix: '/api/api-keys', fn: 'api-keys', path: '' },
  // The tenant's request log (its keys' and members' requests).
  { prefix: '/api/request-log', fn: 'api-keys', path: '/request-log' },
  { prefix: '/v1/content', fn: 'content', path: '' },
  // A site's public feeds and sitemap (readers send no key; the site's public_feeds setting).
  { prefix: '/feeds', fn: 'content', path: '/feeds' },
  // {mcp_url}: the tool server.
  { prefix: '/mcp', fn: 'mcp-sse', path: '' },
  // Its OAuth metadata at the RFC 9728 / RFC 8414 addresses (well-known part before the path).
  {
    prefix: '/.well-known/oauth-protected-resource/mcp',
    fn: 'mcp-sse',
    path: '/.well-known/oauth-protected-resource',
  },
  {
    prefix: '/.well-known/oauth-authorization-server/mcp',
    fn: 'mcp-sse',
    path: '/.well-known/oauth-authorization-server',
  },
  // Its MCP server card, at the origin's well-known address (discovery before connecting).
  { prefix: '/.well-known/mcp', fn: 'mcp-sse', path: '/.well-known/mcp' },
  // The MCP clients a tenant connected by OAuth (dashboard).
  { prefix: '/api/mcp-clients', fn: 'mcp-sse', path: '/oauth/clients' },
  { prefix: '/api/tenants', fn: 'tenants', path: '' },
  { prefix: '/api/credentials', fn: 'credentials', path: '' },
  { prefix: '/api/providers', fn: 'credentials', path: '/providers' },
  { prefix: '/api/invitations', fn: 'tenants', path: '/invitations' },
  { prefix: '/api/usage', fn: 'usage', path: '/usage' },
  { prefix: '/api/usage-alerts', fn: 'usage', path: '/alerts' },
  { prefix: '/v1/analytics', fn: 'usage', path: '/analytics' },
  { prefix: '/api/webhooks', fn: 'webhooks', path: '' },
  { prefix: '/api/integrations', fn: 'integrations', path: '' },
  { prefix: '/api/connections', fn: 'integrations', path: '/connections' },
  // Stores and the delivery log (dashboard), and the synced orders and products (/v1, keys too).
  { prefix: '/api/commerce', fn: 'commerce-webhook', path: '' },
  { prefix: '/v1/commerce', fn: 'commerce-webhook', path: '' },
  // The job engine's rows (scrape-social, generate-article, sync-affiliate), read by the tenant.
  { prefix: '/api/jobs', fn: 'tenants', path: '/background-jobs' },
  { prefix: '/api/sources', fn: 'scrape-social', path: '/sources' },
  { prefix: '/api/affiliate', fn: 'sync-affiliate', path: '' },
  { prefix: '/v1/products', fn: 'sync-affiliate', path: '/products' },
  // The tenant's AI assistant (users and keys with assistant:invoke).
  { prefix: '/v1/assistant', fn: 'assistant', path: '' },
]

/** '/api/api-keys/123' -> '/functions/v1/api-keys/123'; null when no prefix matches. */
export function toFunctionPath(pathname: string): string | null {
  let best: PublicRoute | undefined
  for (const route of publicRoutes) {
    const matches = pathname === route.prefix || pathname.startsWith(`${route.prefix}/`)
    if (matches && (!best || route.prefix.length > best.prefix.length)) best = route
  }
  if (!best) return null
  const rest = pathname.slice(best.prefix.length)
  return `/functions/v1/${best.fn}${best.path}${rest}`
}

/**
 * The reverse of the table: the public address of a function path ('api-keys', '/{id}' ->
 * '/api/api-keys/{id}'). A path no prefix covers, and every job route, keeps its function address.
 */
export function toPublicPath(fn: string, path: string): string {
  let best: PublicRoute | undefined
  for (const route of publicRoutes) {
    if (route.fn !== fn) continue
    const inside = route.path === '' || path === route.path || path.startsWith(`${route.path}/`)
    if (inside && (!best || route.path.length > best.path.length)) best = route
  }
  if (!best || path.startsWith('/jobs/')) return `/functions/v1/${fn}${path === '/' ? '' : path}`
  const rest = path.slice(best.path.length)
  return `${best.prefix}${rest === '/' ? '' : rest}`
}
