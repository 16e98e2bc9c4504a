import { ServiceError } from '@shared/infra/errors.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { MCP_ACCESS_TOKEN_PREFIX, type RouteAuth, tenantCaller } from '@shared/infra/http/authenticate.ts'
import { parseKey } from '@shared/infra/keys.ts'
import { type TriggeredBy, triggeredByValues } from '@shared/services/integrations/usage-log.ts'
import type { Context } from 'hono'

/** Tool-server keys only; which tools a key sees depends on its scopes, checked per tool. */
export const toolAuth = { allow: ['tool_key'] } as const satisfies RouteAuth

export const keyScopes = (c: Context<AppEnv>): string[] => {
  const caller = tenantCaller(c)
  return 'scopes' in caller ? caller.scopes : []
}

/** The tool-server key as presented: X-API-Key, or Authorization: Bearer (clients' apiKey setting). */
export function presentedKey(c: Context<AppEnv>): string | undefined {
  return c.req.header('x-api-key') ?? c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
}

/**
 * The caller authenticated with an MCP client's OAuth access token, as authenticate() decides it:
 * an mcpat_ Bearer and no X-API-Key.
 */
const calledWithOAuthToken = (c: Context<AppEnv>) =>
  c.req.header('x-api-key') === undefined && (presentedKey(c)?.startsWith(MCP_ACCESS_TOKEN_PREFIX) ?? false)

/**
 * The usage log's triggered_by. An MCP client's OAuth access token: 'assistant', always. The
 * grant was given to that client (Claude, ChatGPT, Cursor, the Inspector: an AI application acting
 * for the user who approved it), so its calls are the assistant's whatever header it sends; the
 * header is the client's own claim and must not relabel them 'manual' or 'automation' in the
 * statistics. A tool-server key: the X-Triggered-By header when it names one of the spec's values
 * (the key's owner configures its callers), else from the key kind: srv_ (internal services)
 * 'automation', mcp_dev_ / mcp_live_ (agents) 'assistant'.
 */
export function triggeredBy(c: Context<AppEnv>): TriggeredBy {
  if (calledWithOAuthToken(c)) return 'assistant'
  const header = c.req.header('x-triggered-by')?.trim().toLowerCase()
  if (header && (triggeredByValues as readonly string[]).includes(header)) return header as TriggeredBy
  const key = presentedKey(c)
  return key && parseKey(key)?.prefix === 'srv_' ? 'automation' : 'assistant'
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The host name of a Host header or an origin, when it is loopback (any port). */
function isLoopback(hostOrOrigin: string | undefined, isOrigin: boolean): boolean {
  if (!hostOrOrigin) return false
  try {
    const url = new URL(isOrigin ? hostOrOrigin : `http://${hostOrOrigin}`)
    return (
      (!isOrigin || url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
    )
  } catch {
    return false
  }
}

/**
 * MCP's Origin rule (DNS rebinding): a request that carries an Origin must come from an allowed
 * one (CORS_ORIGINS or MCP_ALLOWED_ORIGINS), else 403. Clients outside browsers send none. On a
 * loopback deployment (the request's Host is localhost, 127.0.0.1 or [::1]) a loopback Origin is
 * allowed too: a page on the same machine, such as the Inspector's. A rebinding page keeps its own
 * name as Origin, so it is still refused.
 */
export function checkOrigin(c: Context<AppEnv>): void {
  const origin = c.req.header('origin')
  if (origin === undefined) return
  const { CORS_ORIGINS, MCP_ALLOWED_ORIGINS } = c.var.deps.config
  if (CORS_ORIGINS.includes(origin) || MCP_ALLOWED_ORIGINS.includes(origin)) return
  if (isLoopback(c.req.header('host'), false) && isLoopback(origin, true)) return
  throw new ServiceError('INSUFFICIENT_PERMISSIONS', `Origin ${origin.slice(0, 200)} is not allowed`)
}
