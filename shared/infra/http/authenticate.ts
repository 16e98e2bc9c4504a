import type { Context, MiddlewareHandler } from 'hono'
import {
  type Caller,
  type CallerKind,
  type MemberRole,
  requireRole,
  type Scope,
  serviceCallerFor,
  type TenantCaller,
} from '../auth.ts'
import { claimsSetup, onReservedConnection, type Queryable, type TenantRef } from '../db.ts'
import { ServiceError } from '../errors.ts'
import { hotPathOf } from '../hot-path.ts'
import { hashKey, parseKey } from '../keys.ts'
import { rateLimitDecision, rateLimits } from '../rate-limit.ts'
import { matchesPublishableKey, matchesServiceKey } from '../supabase-keys.ts'
import type { AppEnv } from './app-env.ts'
import { isTrustedProxy } from './trusted-proxies.ts'

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
  /** Required of user callers (keys act as their creator, and row-level security decides). */
  roles?: readonly MemberRole[]
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization')
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i)
  return match?.[1]
}

/**
 * The client's address, for the unauthenticated rate limit. The socket peer, unless that peer is
 * a configured proxy (TRUSTED_PROXIES): then X-Forwarded-For is read from the right, skipping
 * trusted proxies, and the first other address is the client (entries left of it are whatever
 * the client sent). CLIENT_IP_HEADER names a header a trusted edge overwrites on every request
 * (e.g. Supabase's gateway); it wins when set. See docs/deploy.md.
 */
export function clientAddress(c: Context<AppEnv>): string {
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

const LAST_USED_RESOLUTION_MS = 60_000

/** A key as the request presented it, before it has been verified. */
interface PresentedKey {
  hash: string
  family: 'platform' | 'tool_server'
  kind: 'platform_key' | 'tool_key'
}

/**
 * Verifies a key (from this instance's cache, else one lookup), spends a token of its rate limit
 * (from this instance's lease, else one lease statement) and puts the caller on the context: 401
 * for no credential (charged to the address's bucket), 429 over the key's limit, 403 without the
 * scope. Sets the rate-limit headers. A cached key with tokens in hand costs the database nothing.
 */
async function authorizeKey(c: Context<AppEnv>, presented: PresentedKey, scope: Scope | undefined) {
  const deps = c.get('deps')
  const hot = hotPathOf(deps)
  const now = deps.clock.now()
  const key = await hot.cache.key(presented.hash, presented.family, now)
  if (!key)
    return refuseUnauthenticated(
      c,
      'This API key is unknown, revoked or expired: create a new one with POST /api/api-keys',
    )
  const limit = key.family === 'tool_server' ? Math.min(key.rateLimit, rateLimits.toolServer) : key.rateLimit
  const rl = await hot.leases.take(`key:${key.keyId}`, limit, now)
  c.set('rateLimit', rl)
  if (!rl.allowed)
    throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
  if (scope && !key.scopes.includes(scope))
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${scope}`)
  // Keep last_used_at at minute resolution: one write per key per minute, off the request path.
  if (key.lastUsedAt === null || now.getTime() - key.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    key.lastUsedAt = now.getTime()
    hot.stats.lastUsedWrites++
    deps.sql`update public.api_keys set last_used_at = ${now}
             where id = ${key.keyId} and (last_used_at is null or last_used_at < ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`.catch(
      (e) => deps.logger.warn('last_used_at update failed', { key_id: key.keyId, error: String(e) }),
    )
  }
  c.set('caller', {
    kind: presented.kind,
    keyId: key.keyId,
    tenantId: key.tenantId,
    userId: key.userId,
    scopes: key.scopes,
    claims: {
      sub: key.userId,
      role: 'authenticated',
      app_metadata: { tenant_id: key.tenantId },
      api_key_id: key.keyId,
    },
  })
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
async function refuseUnauthenticated(c: Context<AppEnv>, message: string): Promise<never> {
  await chargeClientAddress(c)
  throw new ServiceError('AUTH_REQUIRED', message)
}

/** OAuth access tokens the tool server issues to MCP clients (functions/mcp-sse/oauth). */
export const MCP_ACCESS_TOKEN_PREFIX = 'mcpat_'

interface McpTokenAuthorization {
  grant_id: string | null
  tenant_id: string | null
  user_id: string | null
  scopes: string[] | null
  client_name: string | null
  last_used_at: Date | null
  allowed: boolean
  tat: Date
  rate_limit: number
}

/**
 * Authenticates an MCP client's access token in one statement (private.authorize_mcp_token):
 * revoked or expired grants are refused on the next request, on every instance. The caller is a
 * tool_key whose keyId is the grant's id; its bucket is the grant's.
 */
async function authorizeMcpToken(c: Context<AppEnv>, token: string) {
  const deps = c.get('deps')
  const now = deps.clock.now()
  const [row] = await deps.sql<McpTokenAuthorization[]>`
    select * from private.authorize_mcp_token(${hashKey(token)}, ${addressBucket(c)},
      ${rateLimits.unauthenticated}, ${rateLimits.toolServer}, ${now})`
  const grant = row!
  const rl = rateLimitDecision(grant.rate_limit, grant.allowed, grant.tat, now)
  c.set('rateLimit', rl)
  if (!grant.allowed)
    throw new ServiceError('RATE_LIMITED', grant.grant_id ? 'Rate limit exceeded' : 'Too many requests', {
      retryAfter: rl.retryAfter,
    })
  if (!grant.grant_id) throw new ServiceError('AUTH_REQUIRED', 'Invalid, expired or revoked access token')
  const grantId = grant.grant_id
  if (!grant.last_used_at || now.getTime() - grant.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    deps.sql`update public.mcp_oauth_grants set last_used_at = ${now} where id = ${grantId}`.catch((e) =>
      deps.logger.warn('grant last_used_at update failed', { grant_id: grantId, error: String(e) }),
    )
  }
  c.set('caller', {
    kind: 'tool_key',
    keyId: grantId,
    tenantId: grant.tenant_id!,
    userId: grant.user_id!,
    scopes: grant.scopes!,
    claims: { sub: grant.user_id!, role: 'authenticated', app_metadata: { tenant_id: grant.tenant_id! } },
  })
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
    const deps = c.get('deps')
    const hot = hotPathOf(deps)
    const now = deps.clock.now()
    const allow = new Set(options.allow)
    const toolKey = c.req.header('x-api-key')
    const token = bearer(c)
    const apikey = c.req.header('apikey')

    // Service-role and anon keys, legacy or sb_secret_/sb_publishable_ (Supabase convention:
    // `apikey` names the project and the Bearer names the caller). A Bearer that is a user token
    // or a platform key decides who calls (`apikey: <anon key>` + `Authorization: Bearer <user JWT>`
    // acts as that user under RLS); a Bearer that is itself a Supabase key, or none, leaves it to
    // the keys, in either place.
    const isService = (k: string | undefined) => k !== undefined && matchesServiceKey(deps.config, k)
    const isPublishable = (k: string | undefined) => k !== undefined && matchesPublishableKey(deps.config, k)
    const bearerIsCaller = token !== undefined && !isService(token) && !isPublishable(token)
    const supabaseKeys = bearerIsCaller ? [] : [token, apikey]
    if (allow.has('service') && supabaseKeys.some(isService)) {
      c.set('caller', { kind: 'service' })
      return next()
    }
    if (allow.has('anon') && supabaseKeys.some(isPublishable)) {
      await chargeClientAddress(c)
      c.set('caller', { kind: 'anon' })
      return next()
    }

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

    if (key && parsedKey && keyKind && allow.has(keyKind)) {
      await authorizeKey(
        c,
        { hash: hashKey(key), family: keyKind === 'tool_key' ? 'tool_server' : 'platform', kind: keyKind },
        options.scope,
      )
      return next()
    }

    if (token && !parsedKey && (allow.has('user') || allow.has('user_without_tenant'))) {
      const claims = await deps.jwt.verify(token)
      if (!claims)
        return refuseUnauthenticated(
          c,
          looksLikeApiKey(token) ? authMessages.malformedKey : authMessages.badAccessToken,
        )
      const tenantId = claims.app_metadata.tenant_id
      const rl = await hot.leases.take(`user:${claims.sub}`, rateLimits.authenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed)
        throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
      const memberRole = tenantId ? await hot.cache.memberRole(claims.sub, tenantId) : null
      if (tenantId && memberRole) {
        c.set('caller', {
          kind: 'user',
          userId: claims.sub,
          tenantId,
          role: memberRole,
          email: claims.email,
          claims: {
            sub: claims.sub,
            role: 'authenticated',
            email: claims.email,
            app_metadata: { tenant_id: tenantId },
          },
        })
        if (options.roles) requireRole(c.get('caller'), options.roles)
        return next()
      }
      if (allow.has('user_without_tenant')) {
        c.set('caller', { kind: 'user_without_tenant', userId: claims.sub, email: claims.email })
        return next()
      }
      throw new ServiceError(
        'INSUFFICIENT_PERMISSIONS',
        'The user is not a member of the tenant in its token',
      )
    }

    // A well-formed key of a kind this route does not take is refused unverified, like any other.
    // Each refusal names its cause and what to send instead.
    const presentedKey = allow.has('tool_key') && toolKey ? toolKey : (token ?? toolKey)
    if (presentedKey && looksLikeApiKey(presentedKey) && !parsedKey)
      return refuseUnauthenticated(c, authMessages.malformedKey)
    if (parsedKey) return refuseUnauthenticated(c, wrongKeyMessage(parsedKey.prefix, keyKind, allow))
    if (allow.has('tool_key') && token) return refuseUnauthenticated(c, authMessages.userTokenAtToolServer)
    return refuseUnauthenticated(c, missingCredentialMessage(allow))
  }
}

/** Our key families' prefixes: a credential starting so is meant as an API key, not a JWT. */
const looksLikeApiKey = (credential: string) => /^(svc|mcp|srv)_/.test(credential)

const toolKeyHowTo =
  'create one with POST /api/api-keys and "kind":"tool_server", and send it as X-API-Key (or Authorization: Bearer)'

/** The refusals' wordings: one per cause, each saying what to do. */
export const authMessages = {
  badAccessToken: 'The access token is invalid or expired: sign in again for a fresh one',
  malformedKey:
    'This API key is malformed (wrong length or checksum): copy the whole key from the answer that created it',
  userTokenAtToolServer: `The tool server takes a tool-server key (mcp_live_, mcp_dev_ or srv_), not a user access token: ${toolKeyHowTo}`,
} as const

function wrongKeyMessage(
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

function missingCredentialMessage(allow: Set<CallerKind>): string {
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

/**
 * A tenant read in one round trip, in one transaction: BEGIN; one statement that sets the role
 * and the caller's claims; the read, under row-level security; COMMIT, pipelined on one
 * connection. The caller was authenticated by the middleware (for a cached key, without the
 * database); metering is buffered apart from the read (meterBuffered).
 */
export async function readAuthenticated<T>(
  c: Context<AppEnv>,
  read: (q: Queryable, tenant: TenantRef) => Promise<T>,
): Promise<T> {
  const caller = tenantCaller(c)
  return onReservedConnection(c.get('deps').sql, async (conn) => {
    const begin = conn`begin`
    const setup = claimsSetup(conn, caller.claims)
    const rows = read(conn, caller.tenantId)
    const commit = conn`commit`
    await Promise.all([begin, setup, rows, commit])
    return rows
  })
}

/** Charges the caller's address to the unauthenticated bucket: for public routes. */
export function limitAnonymous(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await chargeClientAddress(c)
    await next()
  }
}
