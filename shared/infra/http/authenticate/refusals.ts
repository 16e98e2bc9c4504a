import type { CallerKind } from '@shared/infra/caller.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { rateLimits } from '@shared/infra/rate-limit.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { isTrustedProxy } from '../trusted-proxies.ts'

/**
 * What every kind of caller shares when it is refused: the client's address and its
 * unauthenticated bucket, and the refusals' wordings.
 */

/**
 * The client's address, for the unauthenticated rate limit. The socket peer, unless that peer is
 * a configured proxy (TRUSTED_PROXIES): then X-Forwarded-For is read from the right, skipping
 * trusted proxies, and the first other address is the client (entries left of it are whatever
 * the client sent). CLIENT_IP_HEADER names a header a trusted edge overwrites on every request
 * (e.g. Supabase's gateway); it wins when set. See docs/deploy.md.
 */
function clientAddress(c: Context<AppEnv>): string {
  const config = c.get('deps').config
  if (config.CLIENT_IP_HEADER) {
    const value = c.req.header(config.CLIENT_IP_HEADER)?.trim()
    if (value) return value
  }
  const peer = c.env?.remoteAddr || 'unknown'
  if (!config.TRUSTED_PROXIES.length || !isTrustedProxy(peer, config.TRUSTED_PROXIES)) return peer
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrustedProxy(hops[i]!, config.TRUSTED_PROXIES)) return hops[i]!
  }
  return hops[0] ?? peer
}

/** The rate-limit bucket of the client's address (the unauthenticated limit). */
export const addressBucket = (c: Context<AppEnv>) => `ip:${clientAddress(c)}`

/**
 * The one charge of the client's address to the unauthenticated bucket (anonymous routes, failed
 * credentials, failed commerce signatures): sets the rate-limit headers; 429 over the limit. The
 * MCP token check charges the same bucket inside its one statement (private.authorize_mcp_token,
 * only when the token is unknown), with addressBucket and the same limit.
 */
export async function chargeClientAddress(c: Context<AppEnv>): Promise<void> {
  const deps = c.get('deps')
  const rl = await hotPathOf(deps).leases.take(addressBucket(c), rateLimits.unauthenticated, deps.clock.now())
  c.set('rateLimit', rl)
  if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
}

/** 401 after charging the address's bucket (which also throttles key guessing). */
export async function refuseUnauthenticated(c: Context<AppEnv>, message: string): Promise<never> {
  await chargeClientAddress(c)
  throw new ServiceError('AUTH_REQUIRED', message)
}

/** Our key families' prefixes: a credential starting so is meant as an API key, not a JWT. */
export const looksLikeApiKey = (credential: string) => /^(svc|mcp|srv)_/.test(credential)

const toolKeyHowTo =
  'create one with POST /api/api-keys and "kind":"tool_server", and send it as X-API-Key (or Authorization: Bearer)'

/** The refusals' wordings: one per cause, each saying what to do. */
export const authMessages = {
  badAccessToken: 'The access token is invalid or expired: sign in again for a fresh one',
  malformedKey:
    'This API key is malformed (wrong length or checksum): copy the whole key from the answer that created it',
  userTokenAtToolServer: `The tool server takes a tool-server key (mcp_live_, mcp_dev_ or srv_), not a user access token: ${toolKeyHowTo}`,
} as const

/** A whole platform key sent as X-API-Key where the route reads it from Authorization: Bearer. */
export const platformKeyInToolKeyHeader = (prefix: string) =>
  `A ${prefix} key is a platform key: send it as Authorization: Bearer ${prefix}…, not as X-API-Key (X-API-Key is for tool-server keys at /mcp)`

export function wrongKeyMessage(
  prefix: string,
  kind: 'tool_key' | 'platform_key' | null,
  allow: Set<CallerKind>,
): string {
  if (allow.has('tool_key'))
    return `A ${prefix} key is a platform key; the tool server takes a tool-server key (mcp_live_, mcp_dev_ or srv_): ${toolKeyHowTo}`
  if (kind === 'tool_key' && allow.has('platform_key'))
    return `A ${prefix} key is a tool-server key and works only at the tool server (/mcp); send a platform key (svc_live_ or svc_test_) or a user access token here`
  return `A ${prefix} key is not accepted here: ${missingCredentialMessage(allow)}`
}

export function missingCredentialMessage(allow: Set<CallerKind>): string {
  if (allow.has('tool_key')) return `Authentication required: send a tool-server key; ${toolKeyHowTo}`
  const bearer = [
    (allow.has('user') || allow.has('user_without_tenant')) && 'a user access token',
    allow.has('platform_key') && 'a platform key (svc_live_ or svc_test_)',
  ].filter(Boolean)
  if (bearer.length) {
    const keysNote = allow.has('platform_key') ? '' : ' (API keys are not accepted on this route)'
    return `Authentication required: send Authorization: Bearer with ${bearer.join(' or ')}${keysNote}`
  }
  if (allow.has('service')) return 'Authentication required: send the service-role key as the apikey header'
  return 'Authentication required'
}
