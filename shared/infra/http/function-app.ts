import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { getPath } from 'hono/utils/url'
import type { FunctionDeps } from '../deps.ts'
import { errorBody, ServiceError, validationError } from '../errors.ts'
import { describeError } from '../logger.ts'
import { findUnstorable, hasUnstorableText } from '../schemas.ts'
import type { App, AppEnv } from './app-env.ts'
import { toErrorResponse } from './error-response.ts'
import { toFunctionPath } from './public-routes.ts'

const REQUEST_ID = /^[\w.-]{8,128}$/
/** Nesting allowed in any JSON body; free-form fields have tighter caps (boundedJsonObject). */
const MAX_BODY_DEPTH = 32

const unstorable = (field: string) =>
  new ServiceError('VALIDATION_ERROR', `${field} contains a NUL or a lone surrogate`, {
    details: [{ field, message: 'contains a NUL or a lone surrogate' }],
  })

/**
 * The common frame of every function: request id, structured access log, CORS for the dashboard,
 * body limit, zod validation errors and the one error handler, and its OpenAPI document.
 */
export interface FunctionAppOptions {
  /**
   * Requests whose body the route checks itself and must see as sent: signed webhooks (a shop's
   * bytes are verified before anything is parsed, and a bad body is dead-lettered, not refused)
   * and JSON-RPC (a parse error is a JSON-RPC error, not a REST one). Given the function path.
   */
  ownsBody?: (path: string, method: string) => boolean
}

export function createFunctionApp(
  name: string,
  deps: FunctionDeps,
  description: string,
  options: FunctionAppOptions = {},
): App {
  const app = new OpenAPIHono<AppEnv>({
    getPath: (req) => functionPath(name, getPath(req)),
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues)
    },
  })

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    c.set('deps', deps)
    c.set('requestId', requestId)
    const started = performance.now()
    await next()
    c.header('X-Request-Id', requestId)
    const rl = c.var.rateLimit
    if (rl) {
      c.header('X-RateLimit-Limit', String(rl.limit))
      c.header('X-RateLimit-Remaining', String(rl.remaining))
      c.header('X-RateLimit-Reset', String(rl.reset))
    }
    // Scheduled job calls arrive every second locally and every minute on pg_cron: a successful
    // one is routine (debug); a job that did something says so in its own log line.
    const pathname = new URL(c.req.url).pathname
    const routine =
      c.var.caller?.kind === 'service' &&
      c.res.status < 400 &&
      functionPath(name, pathname).startsWith('/jobs/')
    deps.logger[routine ? 'debug' : 'info']('request', {
      fn: name,
      request_id: requestId,
      method: c.req.method,
      path: pathname,
      status: c.res.status,
      duration_ms: Math.round(performance.now() - started),
      caller: c.var.caller?.kind,
      tenant_id: c.var.caller && 'tenantId' in c.var.caller ? c.var.caller.tenantId : undefined,
    })
  })

  app.use(
    '*',
    cors({
      origin: (origin) => (deps.config.CORS_ORIGINS.includes(origin) ? origin : null),
      allowHeaders: [
        'Authorization',
        'Content-Type',
        'X-API-Key',
        'apikey',
        'X-Client-Info',
        'X-Request-Id',
        'Idempotency-Key',
      ],
      exposeHeaders: [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ],
      maxAge: 600,
      credentials: true,
    }),
  )

  app.use(
    '*',
    bodyLimit({
      maxSize: deps.config.MAX_BODY_BYTES,
      onError: () => {
        throw new ServiceError(
          'PAYLOAD_TOO_LARGE',
          `Request body exceeds ${deps.config.MAX_BODY_BYTES} bytes`,
        )
      },
    }),
  )

  // Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) and absurd nesting are refused
  // once, here, for every route: in the query string, the path and any JSON body.
  app.use('*', async (c, next) => {
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
    const type = c.req.header('content-type') ?? ''
    const ownsBody = options.ownsBody?.(functionPath(name, url.pathname), c.req.method) ?? false
    if (!ownsBody && /\bjson\b/i.test(type) && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      // A copy: the route reads the body again (validation, or a handler of its own).
      const text = await c.req.raw.clone().text()
      if (text.trim() !== '') {
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          throw new ServiceError('VALIDATION_ERROR', 'The body is not valid JSON')
        }
        const found = findUnstorable(parsed, MAX_BODY_DEPTH)
        if (found)
          throw new ServiceError('VALIDATION_ERROR', `${found.field} ${found.message}`, { details: [found] })
      }
    }
    await next()
  })

  app.onError((err, c) =>
    toErrorResponse(c, err, (e) =>
      deps.logger.error('unhandled error', { fn: name, request_id: c.var.requestId, ...describeError(e) }),
    ),
  )
  app.notFound((c) =>
    c.json(errorBody(404, 'NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404),
  )

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A user access token (JWT) or a platform API key (svc_live_..., svc_test_...)',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'toolKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'A tool-server key (mcp_live_..., mcp_dev_..., srv_...)',
  })
  app.openAPIRegistry.registerComponent('securitySchemes', 'serviceRole', {
    type: 'apiKey',
    in: 'header',
    name: 'apikey',
    description: 'The service-role key (internal jobs) or the anon key',
  })
  // Liveness with a database round trip, for deploy checks and the Deno smoke test.
  app.get('/health', async (c) => {
    await deps.sql`select 1`
    return c.json({ status: 'ok', function: name })
  })
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: name, version: '1.0.0', description },
    servers: [{ url: `/functions/v1/${name}` }],
  })
  return app
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
