import { toFunctionPath } from './public-routes.ts'

/** The path of a serialized absolute URL, as `new URL(url).pathname` has it, without parsing it. */
export function pathnameOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const query = url.indexOf('?', start)
  return url.slice(start, query === -1 ? undefined : query)
}

/**
 * The path a function routes on. Supabase's edge runtime passes `/<name>/...`, the platform URL
 * is `/functions/v1/<name>/...`, and a proxy (or the local platform) may pass the spec's public
 * path (`/api/api-keys/...`), which the route table maps. All reach the same routes, without
 * copying the request.
 */
export function functionPath(name: string, pathname: string): string {
  for (const prefix of [`/functions/v1/${name}`, `/${name}`]) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return pathname.slice(prefix.length) || '/'
  }
  const mapped = toFunctionPath(pathname)
  return mapped?.startsWith(`/functions/v1/${name}`) ? functionPath(name, mapped) : pathname
}
