import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { FunctionDeps } from '../deps.ts'
import { MALFORMED_JSON, ServiceError } from '../errors.ts'
import { findUnstorable, hasUnstorableText } from '../schemas.ts'
import type { AppEnv } from './app-env.ts'

/** What every route is spared: a body past MAX_BODY_BYTES, text PostgreSQL cannot store, absurd nesting. */

/** Nesting allowed in any JSON body; free-form fields have tighter caps (boundedJsonObject). */
const MAX_BODY_DEPTH = 32

const unstorable = (field: string) =>
  new ServiceError('VALIDATION_ERROR', `${field} contains a NUL or a lone surrogate`, {
    details: [{ field, message: 'contains a NUL or a lone surrogate' }],
  })

/** PAYLOAD_TOO_LARGE past MAX_BODY_BYTES. */
export function bodyLimitGuard(
  deps: FunctionDeps,
  bodyLimitFor?: (path: string, method: string) => number | undefined,
): MiddlewareHandler<AppEnv> {
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new ServiceError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxSize} bytes`)
      },
    })
  const limitBody = limitOf(deps.config.MAX_BODY_BYTES)
  // The larger limits a function declares for its uploads, one middleware per size.
  const largeBodies = new Map<number, MiddlewareHandler>()
  // GET and HEAD carry no body; asking the runtime's request for one (as bodyLimit does) builds a
  // full Request object on Node, a measured cost on the hot read path.
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const large = bodyLimitFor?.(c.req.path, c.req.method)
    if (!large) return limitBody(c, next)
    let limit = largeBodies.get(large)
    if (!limit) {
      limit = limitOf(large)
      largeBodies.set(large, limit)
    }
    return limit(c, next)
  }
}

/**
 * Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) and absurd nesting are refused
 * once, here, for every route: in the query string, the path and any JSON body. `ownsBody`: the
 * requests whose body the route checks itself (FunctionAppOptions).
 */
export function storableInputGuard(
  ownsBody: ((path: string, method: string) => boolean) | undefined,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A request URL is serialized: a NUL or any character outside ASCII in its path or query is
    // percent-encoded there, so a URL without '%' holds nothing to refuse (and need not be parsed,
    // on the hot read path either).
    if (c.req.url.includes('%')) {
      const url = new URL(c.req.url)
      for (const [k, v] of url.searchParams) {
        if (hasUnstorableText(k) || hasUnstorableText(v)) throw unstorable(k || '(query)')
      }
      let path: string
      try {
        path = decodeURIComponent(url.pathname)
      } catch {
        throw new ServiceError('VALIDATION_ERROR', 'The path is not valid percent-encoded UTF-8')
      }
      if (hasUnstorableText(path)) throw unstorable('(path)')
    }
    const type = c.req.header('content-type') ?? ''
    const routeOwnsBody = ownsBody?.(c.req.path, c.req.method) ?? false
    if (!routeOwnsBody && /\bjson\b/i.test(type) && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      // A copy: the route reads the body again (validation, or a handler of its own).
      const text = await c.req.raw.clone().text()
      if (text.trim() !== '') {
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          throw new ServiceError('VALIDATION_ERROR', MALFORMED_JSON)
        }
        const found = findUnstorable(parsed, MAX_BODY_DEPTH)
        if (found)
          throw new ServiceError('VALIDATION_ERROR', `${found.field} ${found.message}`, { details: [found] })
      }
    }
    await next()
  }
}
