import {
  createPlatformClient,
  type PlatformClient,
  type paths,
  type Schema,
} from '@clients/typescript/src/index.ts'
import { toFunctionPath } from '@shared/infra/http/public-routes.ts'
import { createClient } from '@supabase/supabase-js'

export type { paths, Schema }

/** The JSON body a route takes, where the document names no schema for it: `Body<'/api/sources', 'post'>`. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } }
}
  ? B
  : never

/** The only settings: the Supabase URL and anon key, from config.js beside index.html. */
export interface DashboardConfig {
  supabaseUrl: string
  supabaseAnonKey: string
}
declare global {
  interface Window {
    DASHBOARD_CONFIG?: DashboardConfig
  }
}

export const config: DashboardConfig | undefined = window.DASHBOARD_CONFIG
const supabaseUrl = (config?.supabaseUrl ?? location.origin).replace(/\/+$/, '')
const anonKey = config?.supabaseAnonKey ?? 'missing-anon-key'

export const supabase = createClient(supabaseUrl, anonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
})

/** An API error as the spec's body describes it: {error, code, message, retryAfter?, details?}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
    /** Seconds until a refused call may be tried again (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

/**
 * A request to a server function as supabase-js sends one (functions.invoke and its fetch): the
 * session's access token as Authorization (the anon key when signed out; getSession refreshes an
 * expired token first) and the anon key as apikey. `path` is a function path
 * (/functions/v1/<function>/…), so the dashboard works against Supabase with no proxy in front.
 * A network failure becomes ApiError NETWORK, a relay's refusal ApiError RELAY.
 */
export async function functionFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const { data } = await supabase.auth.getSession()
  const headers = new Headers(init.headers)
  headers.set('apikey', anonKey)
  headers.set('authorization', `Bearer ${data.session?.access_token ?? anonKey}`)
  let res: Response
  try {
    res = await fetch(`${supabaseUrl}${path}`, { ...init, headers })
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e
    throw new ApiError(0, 'NETWORK', 'The platform could not be reached. Check your connection and retry.')
  }
  if (res.headers.get('x-relay-error') === 'true') {
    throw new ApiError(res.status, 'RELAY', 'The platform could not run the function. Retry in a moment.')
  }
  return res
}

/**
 * The platform's own typed client (clients/typescript: openapi-fetch over the types generated from
 * the OpenAPI documents), called by the documented public paths (GET /api/api-keys) or a server
 * function's path (POST /functions/v1/scrape-social). Its fetch maps the public path to the
 * function that serves it (the route table's toFunctionPath) and sends it through functionFetch.
 */
export const platform: PlatformClient = createPlatformClient({
  baseUrl: supabaseUrl,
  fetch: async (request: Request) => {
    const url = new URL(request.url)
    const fnPath = url.pathname.startsWith('/functions/v1/') ? url.pathname : toFunctionPath(url.pathname)
    if (!fnPath) throw new ApiError(0, 'CLIENT', `No function serves ${url.pathname}`)
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
    return functionFetch(fnPath + url.search, {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      ...(hasBody && { body: await request.arrayBuffer() }),
    })
  },
})

/**
 * The answer of a typed call, or its refusal thrown as ApiError: `await call(platform.GET('/api/jobs'))`.
 * The answer's type is the route's documented 2xx body.
 */
export async function call<D>(
  pending: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> {
  const { data, error, response } = await pending
  if (response.ok) return data as D
  throw apiErrorOf(response.status, error)
}

function apiErrorOf(status: number, body: unknown): ApiError {
  const parsed = (typeof body === 'object' && body ? body : {}) as Partial<Schema<'Error'>>
  return new ApiError(
    status,
    parsed.code ?? `HTTP_${status}`,
    parsed.message ?? `The server answered ${status}`,
    parsed.details ?? [],
    typeof parsed.retryAfter === 'number' ? parsed.retryAfter : undefined,
  )
}

/** The spec's error body of a refused request, as an ApiError (any body that is not one, by status). */
export async function apiErrorFrom(res: Response): Promise<ApiError> {
  return apiErrorOf(res.status, await res.json().catch(() => null))
}
