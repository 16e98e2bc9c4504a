import type { Context, MiddlewareHandler } from 'hono'
import {
  type Caller,
  type CallerKind,
  type MemberRole,
  type Scope,
  serviceCallerFor,
  type TenantCaller,
} from '../caller.ts'
import { ServiceError } from '../errors.ts'
import { hashKey, parseKey } from '../keys.ts'
import type { AppEnv } from './app-env.ts'
import { authorizeKey } from './authenticate/api-key.ts'
import { authorizeMcpToken, MCP_ACCESS_TOKEN_PREFIX } from './authenticate/mcp-token.ts'
import {
  authMessages,
  chargeClientAddress,
  looksLikeApiKey,
  missingCredentialMessage,
  platformKeyInToolKeyHeader,
  refuseUnauthenticated,
  wrongKeyMessage,
} from './authenticate/refusals.ts'
import { authenticateSupabaseKey } from './authenticate/supabase-keys.ts'
import { authenticateUser } from './authenticate/user-token.ts'

/**
 * Route authentication: a thin dispatcher over one module per kind of caller
 * (`authenticate/`): Supabase keys (service role, anon), MCP OAuth access tokens, API keys
 * (platform and tool-server) and user access tokens; `refusals.ts` holds what they share.
 */

export { MCP_ACCESS_TOKEN_PREFIX } from './authenticate/mcp-token.ts'
export { addressBucket, authMessages, chargeClientAddress } from './authenticate/refusals.ts'

/** Reads the tenant caller set by authenticate(); routes that allow only tenant callers use this. */
export function tenantCaller(c: Context<AppEnv>): TenantCaller {
  const caller: Caller | undefined = c.get('caller')
  if (!caller || !('tenantId' in caller))
    throw new ServiceError('AUTH_REQUIRED', 'A tenant credential is required')
  return caller
}

/**
 * The tenant a server-function call acts for. A user or key acts for its own tenant (a
 * `tenant_id` naming another is refused); the service-role key must name the tenant, and then
 * acts as that tenant (serviceCallerFor). Sets and returns the tenant caller.
 */
export async function callerForTenant(
  c: Context<AppEnv>,
  tenantId: string | undefined,
): Promise<TenantCaller> {
  const caller: Caller | undefined = c.get('caller')
  if (caller?.kind === 'service' && !('tenantId' in caller)) {
    if (!tenantId) {
      throw new ServiceError('VALIDATION_ERROR', 'tenant_id is required with the service-role key', {
        details: [{ field: 'tenant_id', message: 'Required with the service-role key' }],
      })
    }
    const forTenant = await serviceCallerFor(c.get('deps').sql, tenantId)
    c.set('caller', forTenant)
    return forTenant
  }
  const own = tenantCaller(c)
  if (tenantId && tenantId !== own.tenantId) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'tenant_id names another tenant than the credential')
  }
  return own
}

/** Who may call a route: declared next to the route definition (defineRoute). */
export interface RouteAuth {
  allow: readonly CallerKind[]
  /** Required of key callers; users act with their membership role. */
  scope?: Scope
  /** Required of the acting person: a user's own role, a key's creator's current role. */
  roles?: readonly MemberRole[]
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization')
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1]
}

/**
 * Authenticates the caller, charges its rate limit and puts it on the context. A key or user
 * whose verification is cached on this instance and whose rate limit has a leased token in hand
 * costs no database statement here (hotPathOf: see docs/adr/0004-rate-limits-in-postgres.md);
 * otherwise one lookup and one lease statement. Callers without valid credentials are charged to
 * their address's unauthenticated bucket before being refused, which also throttles key guessing.
 */
export function authenticate(options: RouteAuth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const allow = new Set(options.allow)
    const toolKey = c.req.header('x-api-key')
    const token = bearer(c)
    const apikey = c.req.header('apikey')

    // A WebSub hub sends no credentials; only a route that names the kind takes it, and a request
    // that presents any credential is authenticated (and refused) as that credential instead. The
    // route charges the address's bucket when the token is wrong (a hub's good pushes are not limited).
    if (allow.has('websub_hub') && !toolKey && !token && !apikey) {
      c.set('caller', { kind: 'websub_hub' })
      return next()
    }

    // Service-role and anon keys, legacy or sb_secret_/sb_publishable_.
    if (await authenticateSupabaseKey(c, allow, token, apikey)) return next()

    // An MCP client's OAuth access token (the tool server's own authorization server) acts as a
    // tool-server key: the grant's scopes, tenant and user, 100 requests a minute.
    if (allow.has('tool_key') && !toolKey && token?.startsWith(MCP_ACCESS_TOKEN_PREFIX)) {
      await authorizeMcpToken(c, token)
      return next()
    }

    const key = allow.has('tool_key') && toolKey ? toolKey : token
    const parsedKey = key ? parseKey(key) : null
    const keyKind =
      parsedKey?.family === 'tool_server'
        ? 'tool_key'
        : parsedKey?.family === 'platform'
          ? 'platform_key'
          : null

    // A platform key is verified where the route takes platform keys or published-only ones:
    // which of the two it is shows only once it is verified (authorizeKey refuses the other).
    const takesKey =
      keyKind === 'platform_key'
        ? allow.has('platform_key') || allow.has('published_key')
        : keyKind && allow.has(keyKind)
    if (key && parsedKey && keyKind && takesKey) {
      await authorizeKey(
        c,
        { hash: hashKey(key), family: keyKind === 'tool_key' ? 'tool_server' : 'platform', kind: keyKind },
        options.scope,
        options.roles,
        allow,
      )
      return next()
    }

    if (token && !parsedKey && (allow.has('user') || allow.has('user_without_tenant'))) {
      await authenticateUser(c, token, allow, options.roles)
      return next()
    }

    // A well-formed key of a kind this route does not take is refused unverified, like any other.
    // Each refusal names its cause and what to send instead.
    const presentedKey = allow.has('tool_key') && toolKey ? toolKey : (token ?? toolKey)
    // The key as sent, wherever it was sent: a whole key in X-API-Key on a Bearer route is well-formed.
    const presented = presentedKey === key ? parsedKey : presentedKey ? parseKey(presentedKey) : null
    if (presentedKey && looksLikeApiKey(presentedKey) && !presented)
      return refuseUnauthenticated(c, authMessages.malformedKey)
    if (
      presented &&
      presentedKey === toolKey &&
      !token &&
      presented.family === 'platform' &&
      allow.has('platform_key')
    )
      return refuseUnauthenticated(c, platformKeyInToolKeyHeader(presented.prefix))
    if (presented) {
      const presentedKind = presented.family === 'tool_server' ? 'tool_key' : 'platform_key'
      return refuseUnauthenticated(c, wrongKeyMessage(presented.prefix, presentedKind, allow))
    }
    if (allow.has('tool_key') && token) return refuseUnauthenticated(c, authMessages.userTokenAtToolServer)
    return refuseUnauthenticated(c, missingCredentialMessage(allow))
  }
}

/** Charges the caller's address to the unauthenticated bucket: for public routes. */
export function limitAnonymous(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await chargeClientAddress(c)
    await next()
  }
}
