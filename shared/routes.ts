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
  { prefix: '/v1/content', fn: 'content', path: '' },
  { prefix: '/api/tenants', fn: 'tenants', path: '' },
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
