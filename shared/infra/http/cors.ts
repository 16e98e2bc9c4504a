import type { Context } from 'hono'
import type { FunctionDeps } from '../deps.ts'
import type { AppEnv } from './app-env.ts'

/** Who may read a function's answers from a browser page, and the headers that say so. */

export interface CorsRules {
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
function isLoopbackOrigin(origin: string): boolean {
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

/** A request's standing for CORS, decided before the route runs. */
interface CorsRequest {
  origin: string | undefined
  /** The origin when it is one of the dashboard's (CORS_ORIGINS, or loopback when allowed). */
  allowedOrigin: string | undefined
  /** The path is an openCors one. */
  open: boolean
}

export function corsRequest(
  deps: FunctionDeps,
  origin: string | undefined,
  path: () => string,
  rules: CorsRules,
): CorsRequest {
  const allowedOrigin =
    origin &&
    (deps.config.CORS_ORIGINS.includes(origin) ||
      (deps.config.CORS_ALLOW_LOOPBACK && isLoopbackOrigin(origin)))
      ? origin
      : undefined
  return { origin, allowedOrigin, open: rules.openCors?.(path()) ?? false }
}

/** The headers of the answer to a CORS preflight (OPTIONS), for every path, before authentication. */
export function preflightHeaders(
  c: Context<AppEnv>,
  cors: CorsRequest,
  rules: CorsRules,
): [string, string][] {
  const { origin, allowedOrigin, open } = cors
  const keyPreflight =
    !open &&
    !allowedOrigin &&
    origin &&
    rules.keyOriginCors &&
    ['GET', 'HEAD'].includes(c.req.header('access-control-request-method') ?? '')
  return open
    ? OPEN_PREFLIGHT_HEADERS
    : keyPreflight
      ? keyOriginPreflightHeaders(origin)
      : corsHeaders(allowedOrigin, true)
}

/** The CORS headers of an answer, once the caller is known (a published-only key's own origins). */
export function answerCorsHeaders(
  c: Context<AppEnv>,
  cors: CorsRequest,
  rules: CorsRules,
): [string, string][] {
  const { origin, allowedOrigin, open } = cors
  if (open) return OPEN_CORS_HEADERS
  // c.get rather than c.var in the frame: c.var copies every variable into a new object on
  // each access, a measured cost on the hot path (GET /v1/content).
  const caller = c.get('caller')
  const keyOrigin =
    !allowedOrigin &&
    origin &&
    rules.keyOriginCors &&
    caller?.kind === 'published_key' &&
    caller.allowedOrigins?.includes(origin)
      ? origin
      : undefined
  return keyOrigin
    ? [
        ['Access-Control-Allow-Origin', keyOrigin],
        ['Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS],
        ['Vary', 'Origin'],
      ]
    : corsHeaders(allowedOrigin)
}
