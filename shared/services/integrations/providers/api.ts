// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import type { DepsWithoutDatabase } from '@shared/infra/deps.ts'
import { OutboundBlockedError, OutboundError } from '@shared/infra/outbound.ts'
import type { ApiConventions } from './provider.ts'

/**
 * The transport of the providers' tools: calls of a provider's documented API (request and
 * response shapes as the providers publish them). The base URL is the provider's apiBaseUrl,
 * which OAUTH_PROVIDERS_OVERRIDE can re-point (tests use loopback servers).
 *
 * A call throws ProviderAuthError when the provider refuses the token (HTTP 401, or what the
 * provider's own `readError` reads as a refused token, such as Slack's `ok: false` with
 * invalid_auth / token_expired), so the caller can refresh once and retry, and ProviderError for
 * anything else that is not a usable answer (error status, garbage, time-out).
 */

export class ProviderAuthError extends Error {
  override name = 'ProviderAuthError'
}

export class ProviderError extends Error {
  override name = 'ProviderError'
}

interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  query?: Record<string, string | number | boolean | undefined>
  json?: unknown
  body?: string
  contentType?: string
  /** Read the body as text rather than JSON (file downloads). */
  text?: boolean
}

export type Api = (call: ApiCall) => Promise<any>

/** The longest text a tool returns from a provider (file contents, message bodies). */
export const MAX_TEXT = 256 * 1024
export const enc = encodeURIComponent

/** A field the tool's answer cannot do without. */
export const need = (value: unknown, what: string) => {
  if (value === undefined || value === null) throw new ProviderError(`the provider answer has no ${what}`)
  return value
}

/** An Api bound to one connection's base URL and token, through the guarded fetch. */
export function providerApi(
  deps: DepsWithoutDatabase,
  provider: { slug: string; api?: ApiConventions },
  baseUrl: string,
  token: string,
  timeoutMs: number,
): Api {
  const { slug } = provider
  const base = baseUrl.replace(/\/+$/, '')
  return async (call) => {
    const url = new URL(`${base}${call.path}`)
    for (const [k, v] of Object.entries(call.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...provider.api?.headers,
    }
    let body: string | undefined
    if (call.json !== undefined) {
      body = JSON.stringify(call.json)
      headers['content-type'] = 'application/json; charset=utf-8'
    } else if (call.body !== undefined) {
      body = call.body
      headers['content-type'] = call.contentType ?? 'text/plain'
    }
    let res: Response
    try {
      res = await deps.fetch(url, { method: call.method, headers, body, timeoutMs, redirect: 'error' })
    } catch (err) {
      if (err instanceof OutboundBlockedError)
        throw new ProviderError(`the provider address is refused: ${err.reason}`)
      if (err instanceof OutboundError)
        throw new ProviderError(
          err.kind === 'timeout'
            ? 'the provider did not answer in time'
            : `the provider is unreachable (${err.kind})`,
        )
      throw new ProviderError('the provider is unreachable')
    }
    if (res.status === 401) throw new ProviderAuthError(`${slug} refused the access token (HTTP 401)`)
    const text = await res.text()
    if (call.text && res.ok) return text.slice(0, MAX_TEXT)
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : {}
    } catch {
      throw new ProviderError(`${slug} answered HTTP ${res.status} with a body that is not JSON`)
    }
    provider.api?.readError?.(parsed, res.ok)
    if (!res.ok) {
      const message =
        (typeof parsed?.message === 'string' && parsed.message) ||
        (typeof parsed?.error?.message === 'string' && parsed.error.message) ||
        (typeof parsed?.error === 'string' && parsed.error) ||
        ''
      throw new ProviderError(
        `${slug} answered HTTP ${res.status}${message ? `: ${String(message).slice(0, 300)}` : ''}`,
      )
    }
    if (parsed === null || typeof parsed !== 'object')
      throw new ProviderError(`${slug} answered with an unexpected body`)
    return parsed
  }
}
