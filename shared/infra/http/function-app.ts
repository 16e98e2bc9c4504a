import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context, Hono } from 'hono'
import { getPath } from 'hono/utils/url'
import type { FunctionDeps } from '../deps.ts'
import { validationError } from '../errors.ts'
import { logTenantRequest } from '../hot-path/log-request.ts'
import { describeError } from '../logger.ts'
import { allowedMethodsOf, unmatchedResponse } from './allowed-methods.ts'
import type { App, AppEnv } from './app-env.ts'
import { answerCorsHeaders, type CorsRules, corsRequest, preflightHeaders } from './cors.ts'
import { toErrorResponse } from './error-response.ts'
import { functionPath, pathnameOf } from './function-path.ts'
import { bodyLimitGuard, storableInputGuard } from './input-guards.ts'
import type { MeterRequest } from './route-meter.ts'
import { securityHeadersFor } from './security-headers.ts'

const REQUEST_ID = /^[\w.-]{8,128}$/

export interface FunctionAppOptions extends CorsRules {
  /**
   * Requests whose body the route checks itself and must see as sent: signed webhooks (a shop's
   * bytes are verified before anything is parsed, and a bad body is dead-lettered, not refused)
   * and JSON-RPC (a parse error is a JSON-RPC error, not a REST one). Given the function path.
   */
  ownsBody?: (path: string, method: string) => boolean
  /**
   * Meters one request to a route that declares `meter` (defineRoute): the product's rule of who
   * is metered lives here, in the function that owns the product. The route's handler is wrapped
   * in meteredHandler (route-meter.ts), which calls it after validation and before the handler.
   */
  meter?: MeterRequest
  /**
   * A larger body limit than MAX_BODY_BYTES for the requests that carry files (a media upload):
   * bytes, or undefined for the default. Given the function path and method.
   */
  bodyLimitFor?: (path: string, method: string) => number | undefined
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
 * The common frame of every function: request id, CORS (cors.ts), security and rate-limit headers,
 * the structured access log and the tenant's request log, the input guards (input-guards.ts), zod
 * validation errors and the one error handler, 404 and 405, health, and its OpenAPI document.
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
  const { meter } = options

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    c.set('deps', deps)
    c.set('requestId', requestId)
    if (meter) c.set('meterRequest', meter)
    const started = performance.now()
    const cors = corsRequest(
      deps,
      c.req.header('origin'),
      () => functionPath(name, new URL(c.req.url).pathname),
      options,
    )
    // A CORS preflight is answered here, for every path, before authentication.
    if (c.req.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: [['X-Request-Id', requestId], ...preflightHeaders(c, cors, options)],
      })
    await next()
    const rl = c.get('rateLimit')
    const caller = c.get('caller')
    setResponseHeaders(c, [
      ['X-Request-Id', requestId],
      // nosniff on every answer; the frame, CSP and referrer headers on an HTML one.
      ...securityHeadersFor(c.res.headers.get('content-type'), c.res.headers.get('content-security-policy')),
      ...answerCorsHeaders(c, cors, options),
      ...(rl
        ? ([
            ['X-RateLimit-Limit', String(rl.limit)],
            ['X-RateLimit-Remaining', String(rl.remaining)],
            ['X-RateLimit-Reset', String(rl.reset)],
          ] as const)
        : []),
    ])
    // A WebSub hub's callback address ends in its subscription's token: never logged.
    const pathname =
      caller?.kind === 'websub_hub'
        ? pathnameOf(c.req.url).replace(/\/[^/]*$/, '/[token]')
        : pathnameOf(c.req.url)
    // Scheduled job calls arrive every second locally and every minute on pg_cron: a successful
    // one is routine (debug); a job that did something says so in its own log line.
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

  app.use('*', bodyLimitGuard(deps, options.bodyLimitFor))
  app.use('*', storableInputGuard(options.ownsBody))

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
