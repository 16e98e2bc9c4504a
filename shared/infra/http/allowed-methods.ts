import type { Context, Hono } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import { errorBody } from '../errors.ts'

/** Methods a route can name; HEAD is answered wherever GET is (Hono routes it to the GET handler). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * The methods an app's routes take at a path, for a 405 where the path exists under another
 * method. Built once, on the first unmatched request (every route is registered by then), from
 * the app's own route list: middleware (`use`, method ALL) is left out, since it answers nothing.
 */
export function allowedMethodsOf(app: Hono<never> | Hono): (path: string) => string[] {
  let router: PatternRouter<true> | undefined
  return (path) => {
    if (!router) {
      router = new PatternRouter<true>()
      for (const r of app.routes) if (r.method !== 'ALL') router.add(r.method, r.path, true)
    }
    const allowed: string[] = METHODS.filter((m) => router!.match(m, path)[0].length > 0)
    if (allowed.includes('GET')) allowed.push('HEAD')
    return allowed
  }
}

/**
 * The answer for a request no route took: 405 METHOD_NOT_ALLOWED with `Allow` where the path
 * takes other methods, else 404 NOT_FOUND.
 */
export function unmatchedResponse(c: Context, allowed: string[]): Response {
  const shown = new URL(c.req.url).pathname
  if (allowed.length === 0)
    return c.json(errorBody(404, 'NOT_FOUND', `No route for ${c.req.method} ${shown}`), 404)
  return c.json(
    errorBody(
      405,
      'METHOD_NOT_ALLOWED',
      `${shown} does not take ${c.req.method}; it takes ${allowed.join(', ')}`,
    ),
    405,
    { Allow: allowed.join(', ') },
  )
}
