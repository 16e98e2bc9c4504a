import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context, Hono, MiddlewareHandler, Next } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { getPath } from 'hono/utils/url'
import type { FunctionDeps } from '../deps.ts'
import { MALFORMED_JSON, ServiceError, validationError } from '../errors.ts'
import { logTenantRequest } from '../hot-path/request-log.ts'
import { describeError } from '../logger.ts'
import { findUnstorable, hasUnstorableText } from '../schemas.ts'
import { allowedMethodsOf, unmatchedResponse } from './allowed-methods.ts'
import type { App, AppEnv } from './app-env.ts'
import { METER_EXTENSION, type RouteMeter } from './define-route.ts'
import { toErrorResponse } from './error-response.ts'
import { toFunctionPath } from './public-routes.ts'
import { securityHeadersFor } from './security-headers.ts'

const REQUEST_ID = /^[\w.-]{8,128}$/
/** Nesting allowed in any JSON body; free-form fields have tighter caps (boundedJsonObject). */
const MAX_BODY_DEPTH = 32

const unstorable = (field: string) =>
  new ServiceError('VALIDATION_ERROR', `${field} contains a NUL or a lone surrogate`, {
    details: [{ field, message: 'contains a NUL or a lone surrogate' }],
  })

export interface FunctionAppOptions {
  /**
   * Requests whose body the route checks itself and must see as sent: signed webhooks (a shop's
   * bytes are verified before anything is parsed, and a bad body is dead-lettered, not refused)
   * and JSON-RPC (a parse error is a JSON-RPC error, not a REST one). Given the function path.
   */
  ownsBody?: (path: string, method: string) => boolean
  /**
   * Paths any web page may call (the tool server's OAuth metadata, registration, token and
   * revocation endpoints, which browser-based MCP clients fetch cross-origin): their answers and
   * preflights carry `Access-Control-Allow-Origin: *` and never Allow-Credentials, so a browser
   * sends no cookies with them and lets no page read an answer that used any. Given the function path.
   */
  openCors?: (path: string) => boolean
  /**
   * Published-only keys' own origins (the Content API): a GET from an origin the key lists in
   * allowed_origins is answered with CORS for that origin, without credentials. The preflight
   * (which carries no key) is answered for GET from any origin; the answer itself is readable
   * only from the key's origins.
   */
  keyOriginCors?: boolean
  /**
   * Meters one request to a route that declares `meter` (defineRoute): the product's rule of who
   * is metered lives here, in the function that owns the product. Called only when metering is
   * enabled, after validation and before the handler.
   */
  meter?: (c: Context<AppEnv>, meter: RouteMeter) => Promise<void>
  /**
   * A larger body limit than MAX_BODY_BYTES for the requests that carry files (a media upload):
   * bytes, or undefined for the default. Given the function path and method.
   */
  bodyLimitFor?: (path: string, method: string) => number | undefined
}

/**
 * CORS for the dashboard's origins (CORS_ORIGINS), with credentials. Written here rather than
 * with hono/cors, which appends Vary with c.header() after the handler: that re-creates the
 * response around its body as a stream, a measured cost on the hot read path (GET /v1/content).
 */
const CORS_EXPOSE_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
].join(',')
const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-API-Key',
  'apikey',
  'X-Client-Info',
  'X-Request-Id',
  'Idempotency-Key',
].join(',')
const PREFLIGHT_HEADERS: [string, string][] = [
  ['Access-Control-Allow-Methods', 'GET,HEAD,PUT,POST,DELETE,PATCH'],
  ['Access-Control-Allow-Headers', CORS_ALLOW_HEADERS],
  ['Access-Control-Max-Age', '600'],
  ['Vary', 'Access-Control-Request-Headers'],
]

/** CORS of an openCors path: any origin, no credentials (the wildcard excludes them). */
const OPEN_CORS_HEADERS: [string, string][] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', `${CORS_EXPOSE_HEADERS},WWW-Authenticate`],
]
const OPEN_PREFLIGHT_HEADERS: [string, string][] = [
  ...OPEN_CORS_HEADERS,
  ['Access-Control-Allow-Methods', 'GET,POST,OPTIONS'],
  ['Access-Control-Allow-Headers', 'Authorization,Content-Type,MCP-Protocol-Version'],
  ['Access-Control-Max-Age', '600'],
]

/** A preflight for a published-only key's read: GET with its key and a cache validator, no credentials. */
const keyOriginPreflightHeaders = (origin: string): [string, string][] => [
  ['Access-Control-Allow-Origin', origin],
  ['Access-Control-Allow-Methods', 'GET,HEAD'],
  ['Access-Control-Allow-Headers', 'Authorization,If-None-Match'],
  ['Access-Control-Max-Age', '600'],
  ['Vary', 'Origin, Access-Control-Request-Headers'],
]

/** http(s) on localhost, 127.0.0.0/8 or [::1], any port: a browser page served from this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/.test(origin)
}

/**
 * CORS headers for a response: the allow/expose set only for a configured origin (a request from
 * another origin, or with none such as a server's, gets none of them), and Vary always, since
 * the answer depends on Origin.
 */
function corsHeaders(allowedOrigin: string | undefined, preflight = false): [string, string][] {
  if (!allowedOrigin)
    return preflight ? [['Vary', 'Origin, Access-Control-Request-Headers']] : [['Vary', 'Origin']]
  return [
    ['Access-Control-Allow-Origin', allowedOrigin],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS],
    ['Vary', 'Origin'],
    ...(preflight ? PREFLIGHT_HEADERS : []),
  ]
}

/**
 * Adds headers to the response a handler made, in place. Hono's c.header() after the handler
 * would re-create the response around its body as a stream (losing the runtime's fast path for a
 * body of known length). A response whose headers are immutable (one passed on from fetch()) is
 * copied once instead. Vary is appended to, everything else replaced.
 */
function setResponseHeaders(c: Context<AppEnv>, headers: readonly (readonly [string, string])[]) {
  const apply = (target: Headers) => {
    for (const [name, value] of headers) {
      if (name === 'Vary') target.append(name, value)
      else target.set(name, value)
    }
  }
  try {
    apply(c.res.headers)
  } catch {
    const copy = new Response(c.res.body, c.res)
    apply(copy.headers)
    c.res = copy
  }
}

/**
 * The common frame of every function: request id, structured access log, CORS for the dashboard,
 * body limit, zod validation errors and the one error handler, and its OpenAPI document.
 */
export function createFunctionApp(
  name: string,
  deps: FunctionDeps,
  description: string,
  options: FunctionAppOptions = {},
): App {
  const app = new OpenAPIHono<AppEnv>({
    getPath: (req) => functionPath(name, getPath(req)),
    defaultHook: (result) => {
      if (result.success) return
      if (result.target === 'query')
        throw validationError(result.error.issues, 'Invalid query', [], 'is not a known query parameter')
      throw validationError(result.error.issues)
    },
  })

  meterDeclaredRoutes(app, name, deps, options.meter)

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    c.set('deps', deps)
    c.set('requestId', requestId)
    const started = performance.now()
    const origin = c.req.header('origin')
    const allowedOrigin =
      origin &&
      (deps.config.CORS_ORIGINS.includes(origin) ||
        (deps.config.CORS_ALLOW_LOOPBACK && isLoopbackOrigin(origin)))
        ? origin
        : undefined
    const open = options.openCors?.(functionPath(name, new URL(c.req.url).pathname)) ?? false
    // A CORS preflight is answered here, for every path, before authentication.
    if (c.req.method === 'OPTIONS') {
      const keyPreflight =
        !open &&
        !allowedOrigin &&
        origin &&
        options.keyOriginCors &&
        ['GET', 'HEAD'].includes(c.req.header('access-control-request-method') ?? '')
      return new Response(null, {
        status: 204,
        headers: [
          ['X-Request-Id', requestId],
          ...(open
            ? OPEN_PREFLIGHT_HEADERS
            : keyPreflight
              ? keyOriginPreflightHeaders(origin)
              : corsHeaders(allowedOrigin, true)),
        ],
      })
    }
    await next()
    // c.get rather than c.var in the frame: c.var copies every variable into a new object on
    // each access, a measured cost on the hot path (GET /v1/content).
    const rl = c.get('rateLimit')
    const caller = c.get('caller')
    const keyOrigin =
      !allowedOrigin &&
      origin &&
      options.keyOriginCors &&
      caller?.kind === 'published_key' &&
      caller.allowedOrigins?.includes(origin)
        ? origin
        : undefined
    setResponseHeaders(c, [
      ['X-Request-Id', requestId],
      // nosniff on every answer; the frame, CSP and referrer headers on an HTML one.
      ...securityHeadersFor(c.res.headers.get('content-type'), c.res.headers.get('content-security-policy')),
      ...(open
        ? OPEN_CORS_HEADERS
        : keyOrigin
          ? ([
              ['Access-Control-Allow-Origin', keyOrigin],
              ['Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS],
              ['Vary', 'Origin'],
            ] as [string, string][])
          : corsHeaders(allowedOrigin)),
      ...(rl
        ? ([
            ['X-RateLimit-Limit', String(rl.limit)],
            ['X-RateLimit-Remaining', String(rl.remaining)],
            ['X-RateLimit-Reset', String(rl.reset)],
          ] as const)
        : []),
    ])
    // Scheduled job calls arrive every second locally and every minute on pg_cron: a successful
    // one is routine (debug); a job that did something says so in its own log line.
    const pathname = pathnameOf(c.req.url)
    const routine = caller?.kind === 'service' && c.res.status < 400 && c.req.path.startsWith('/jobs/')
    deps.logger[routine ? 'debug' : 'info']('request', {
      fn: name,
      request_id: requestId,
      method: c.req.method,
      path: pathname,
      status: c.res.status,
      duration_ms: Math.round(performance.now() - started),
      caller: caller?.kind,
      tenant_id: caller && 'tenantId' in caller ? caller.tenantId : undefined,
    })
    logTenantRequest(c, name, started)
  })

  const limitBody = bodyLimit({
    maxSize: deps.config.MAX_BODY_BYTES,
    onError: () => {
      throw new ServiceError('PAYLOAD_TOO_LARGE', `Request body exceeds ${deps.config.MAX_BODY_BYTES} bytes`)
    },
  })
  // GET and HEAD carry no body; asking the runtime's request for one (as bodyLimit does) builds a
  // full Request object on Node, a measured cost on the hot read path.
  const largeBodies = new Map<number, ReturnType<typeof bodyLimit>>()
  const limitLargeBody = (maxSize: number) => {
    let limit = largeBodies.get(maxSize)
    if (!limit) {
      limit = bodyLimit({
        maxSize,
        onError: () => {
          throw new ServiceError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxSize} bytes`)
        },
      })
      largeBodies.set(maxSize, limit)
    }
    return limit
  }
  app.use('*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const large = options.bodyLimitFor?.(c.req.path, c.req.method)
    return large ? limitLargeBody(large)(c, next) : limitBody(c, next)
  })

  // Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) and absurd nesting are refused
  // once, here, for every route: in the query string, the path and any JSON body.
  app.use('*', async (c, next) => {
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
    const ownsBody = options.ownsBody?.(c.req.path, c.req.method) ?? false
    if (!ownsBody && /\bjson\b/i.test(type) && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
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
  })

  app.onError((err, c) =>
    toErrorResponse(c, err, (e) =>
      deps.logger.error('unhandled error', { fn: name, request_id: c.get('requestId'), ...describeError(e) }),
    ),
  )
  // A path that exists under other methods is 405 with Allow; anything else 404.
  const allowedAt = allowedMethodsOf(app as unknown as Hono)
  app.notFound((c) => unmatchedResponse(c, allowedAt(functionPath(name, new URL(c.req.url).pathname))))

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
 * Routes registered on `app` that declare `meter` are metered once, here: the handler is wrapped
 * so the request is metered after the route's validators and before its handler runs. A route
 * that declares a meter in a function that gives no way to meter is an error at start-up.
 */
function meterDeclaredRoutes(
  app: App,
  name: string,
  deps: FunctionDeps,
  meterRequest: FunctionAppOptions['meter'],
) {
  const register = app.openapi
  app.openapi = ((route, handler, hook) => {
    const meter = (route as { [METER_EXTENSION]?: RouteMeter })[METER_EXTENSION]
    if (!meter) return register(route, handler, hook)
    if (!meterRequest)
      throw new Error(
        `${route.method.toUpperCase()} ${name}${route.path} declares a meter; createFunctionApp has none`,
      )
    const metered = async (c: Context<AppEnv>, next: Next) => {
      if (deps.config.METERING_ENABLED) await meterRequest(c, meter)
      return (handler as MiddlewareHandler<AppEnv>)(c, next)
    }
    return register(route, metered as unknown as typeof handler, hook)
  }) as App['openapi']
}

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
