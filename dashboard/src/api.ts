import { toFunctionPath } from '@shared/infra/http/public-routes.ts'
import { createClient, FunctionsFetchError, FunctionsHttpError } from '@supabase/supabase-js'

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

export const supabase = createClient(
  config?.supabaseUrl ?? location.origin,
  config?.supabaseAnonKey ?? 'missing-anon-key',
  { auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false } },
)

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
 * Calls the platform by its documented public path (e.g. GET /api/api-keys), or a server function by
 * its function path (POST /functions/v1/scrape-social), the way supabase-js
 * calls a function: functions.invoke('<function>/<path>') sends the session's access token as
 * Authorization and the anon key as apikey. The route table maps the public path to the
 * function, so the same dashboard works against Supabase with no proxy in front.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const [pathname, query] = path.split('?') as [string, string | undefined]
  // Server functions (scrape-social, ...) are documented by their function path; the rest by public path.
  const fnPath = pathname.startsWith('/functions/v1/') ? pathname : toFunctionPath(pathname)
  if (!fnPath) throw new ApiError(0, 'CLIENT', `No function serves ${pathname}`)
  const name = fnPath.slice('/functions/v1/'.length) + (query ? `?${query}` : '')
  const { data, error } = await supabase.functions.invoke(name, {
    method: method as 'GET' | 'POST' | 'PATCH' | 'DELETE',
    ...(body !== undefined && { body: body as Record<string, unknown> }),
  })
  if (!error) return data as T
  if (error instanceof FunctionsHttpError) {
    throw await apiErrorFrom(error.context as Response)
  }
  if (error instanceof FunctionsFetchError) {
    throw new ApiError(0, 'NETWORK', 'The platform could not be reached. Check your connection and retry.')
  }
  throw new ApiError(0, 'CLIENT', String(error.message ?? error))
}

export interface Page<T> {
  data: T[]
  next_cursor?: string | null
}

/** The spec's error body of a refused request, as an ApiError (any body that is not one, by status). */
export async function apiErrorFrom(res: Response): Promise<ApiError> {
  const parsed = await res.json().catch(() => null)
  return new ApiError(
    res.status,
    parsed?.code ?? `HTTP_${res.status}`,
    parsed?.message ?? `The server answered ${res.status}`,
    parsed?.details ?? [],
    typeof parsed?.retryAfter === 'number' ? parsed.retryAfter : undefined,
  )
}
