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
import { claimsSetup, type Queryable, type TenantRef } from '../db.ts'
import { ServiceError } from '../errors.ts'
import { hashKey, parseKey } from '../keys.ts'
import { rateLimitDecision, rateLimits, takeRateLimit } from '../rate-limit.ts'
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
  /**
   * The handler reads through readAuthenticated(), which checks a key in the same round trip as
   * the read (hot read paths such as GET /v1/content).
   */
  pipelined?: boolean
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

/** A key as the request presented it, before the database has looked at it. */
interface PresentedKey {
  key: string
  hash: string
  family: 'platform' | 'tool_server'
  kind: 'platform_key' | 'tool_key'
}

/**
 * private.authorize_key's answer: the key (nulls when it is no credential), whether it holds the
 * route's scope, and the rate-limit take (from the key's bucket, or the address's).
 */
interface KeyAuthorization {
  key_id: string | null
  tenant_id: string | null
  user_id: string | null
  scopes: string[] | null
  last_used_at: Date | null
  scope_ok: boolean
  allowed: boolean
  tat: Date
  rate_limit: number
}

/**
 * The one statement that authenticates a key: lookup, rate-limit take, scope check, and the
 * transaction's claims (set only for a valid key with the scope whose take was allowed).
 * `asTenant` also switches the transaction to role authenticated for a read that follows
 * (set_config here runs outside the security-definer function, where setting the role is allowed).
 */
const authorizeKey = (
  q: Queryable,
  c: Context<AppEnv>,
  presented: PresentedKey,
  scope: Scope | undefined,
  asTenant: boolean,
) =>
  q<KeyAuthorization[]>`
    select a.* ${asTenant ? q`, set_config('role', 'authenticated', true) as role` : q``}
    from private.authorize_key(${presented.hash}, ${presented.family}, ${scope ?? null},
      ${`ip:${clientAddress(c)}`}, ${rateLimits.unauthenticated}, ${rateLimits.toolServer},
      ${c.get('deps').clock.now()}) a`

/**
 * Turns a key's authorization into the caller, or into today's refusals: 401 for no credential,
 * 429 over the key's or the address's limit, 403 without the scope. Sets the rate-limit headers
 * either way.
 */
function applyKeyOutcome(c: Context<AppEnv>, presented: PresentedKey, key: KeyAuthorization, scope?: Scope) {
  const deps = c.get('deps')
  const now = deps.clock.now()
  const rl = rateLimitDecision(key.rate_limit, key.allowed, key.tat, now)
  c.set('rateLimit', rl)
  if (!key.key_id) {
    if (!key.allowed)
      throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
    throw new ServiceError(
      'AUTH_REQUIRED',
      'This API key is unknown, revoked or expired: create a new one with POST /api/api-keys',
    )
  }
  if (!key.allowed)
    throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
  if (!key.scope_ok)
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${scope}`)
  const keyId = key.key_id
  // Keep last_used_at at minute resolution: one write per key per minute, off the request path.
  if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    deps.sql`update public.api_keys set last_used_at = ${now}
             where id = ${keyId} and (last_used_at is null or last_used_at < ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`.catch(
      (e) => deps.logger.warn('last_used_at update failed', { key_id: keyId, error: String(e) }),
    )
  }
  c.set('caller', {
    kind: presented.kind,
    keyId,
    tenantId: key.tenant_id!,
    userId: key.user_id!,
    scopes: key.scopes!,
    claims: {
      sub: key.user_id!,
      role: 'authenticated',
      app_metadata: { tenant_id: key.tenant_id! },
      api_key_id: keyId,
    },
  })
}

/**
 * Authenticates the caller, charges its rate limit and puts it on the context. Every path costs
 * one database round trip: the key lookup (or membership check) and the rate-limit take are one
 * statement. Callers without valid credentials are charged to their address's unauthenticated
 * bucket before being refused, which also throttles key guessing. On routes marked `pipelined`,
 * a key is only parsed here; the handler's readAuthenticated() checks it in its read's round trip.
 */
export function authenticate(options: RouteAuth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get('deps')
    const now = deps.clock.now()
    const allow = new Set(options.allow)
    const toolKey = c.req.header('x-api-key')
    const token = bearer(c)
    const apikey = c.req.header('apikey')

    const refuse = async (message: string): Promise<never> => {
      const rl = await takeRateLimit(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed)
        throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
      throw new ServiceError('AUTH_REQUIRED', message)
    }

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
      const rl = await takeRateLimit(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed)
        throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
      c.set('caller', { kind: 'anon' })
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
      const presented: PresentedKey = {
        key,
        hash: hashKey(key),
        family: keyKind === 'tool_key' ? 'tool_server' : 'platform',
        kind: keyKind,
      }
      if (options.pipelined) {
        c.set('pendingKey', { ...presented, scope: options.scope })
        return next()
      }
      const [row] = await authorizeKey(deps.sql, c, presented, options.scope, false)
      applyKeyOutcome(c, presented, row!, options.scope)
      return next()
    }

    if (token && !parsedKey && (allow.has('user') || allow.has('user_without_tenant'))) {
      const claims = await deps.jwt.verify(token)
      if (!claims)
        return refuse(looksLikeApiKey(token) ? authMessages.malformedKey : authMessages.badAccessToken)
      const tenantId = claims.app_metadata.tenant_id
      const [row] = await deps.sql<{ member_role: MemberRole | null; allowed: boolean; tat: Date }[]>`
        select (select role from public.tenant_members where tenant_id = ${tenantId ?? null} and user_id = ${claims.sub}) as member_role,
               rl.allowed, rl.tat
        from private.take_rate_limit(${`user:${claims.sub}`}, ${rateLimits.authenticated}, ${now}) rl`
      const rl = rateLimitDecision(rateLimits.authenticated, row!.allowed, row!.tat, now)
      c.set('rateLimit', rl)
      if (!rl.allowed)
        throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
      if (tenantId && row!.member_role) {
        c.set('caller', {
          kind: 'user',
          userId: claims.sub,
          tenantId,
          role: row!.member_role,
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
    if (presentedKey && looksLikeApiKey(presentedKey) && !parsedKey) return refuse(authMessages.malformedKey)
    if (parsedKey) return refuse(wrongKeyMessage(parsedKey.prefix, keyKind, allow))
    if (allow.has('tool_key') && token) return refuse(authMessages.userTokenAtToolServer)
    return refuse(missingCredentialMessage(allow))
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
 * A tenant read in one round trip for every caller, in one transaction. For a key on a
 * `pipelined` route these go out together on one connection: BEGIN; private.authorize_key, which
 * looks the key up, takes the rate limit and sets the transaction's claims only for a credential
 * with the route's scope whose take was allowed, and switches to role authenticated; the read,
 * under row-level security (no claims, no rows); then, with `after` (e.g. metering), back to the
 * function's own role and `after`, which names the tenant through `tenant`, read from those
 * claims; COMMIT. For a refused key the read's rows and `after`'s result are discarded (they
 * acted for no tenant); the refusal is exactly the middleware's. Users were authenticated by the
 * middleware; their claims come from it.
 */
export async function readAuthenticated<T, A = undefined>(
  c: Context<AppEnv>,
  read: (q: Queryable, tenant: TenantRef) => Promise<T>,
  after?: (q: Queryable, tenant: TenantRef) => Promise<A>,
): Promise<{ rows: T; after: A | undefined }> {
  const deps = c.get('deps')
  const pending = c.get('pendingKey')
  const caller = pending ? undefined : tenantCaller(c)
  const conn = await deps.sql.reserve()
  try {
    // Fragments are made afresh for each statement that embeds them. A sub-select, so the claims
    // are parsed once per statement rather than once per row.
    const tenant = (): TenantRef =>
      caller
        ? caller.tenantId
        : conn`(select (nullif(current_setting('request.jwt.claims', true), '')::jsonb #>> '{app_metadata,tenant_id}')::uuid)`
    const begin = conn`begin`
    const authorized = pending
      ? authorizeKey(conn, c, pending, pending.scope, true)
      : claimsSetup(conn, caller!.claims)
    const rows = read(conn, tenant())
    const asFunction = after ? conn`set local role none` : undefined
    const afterRead = after?.(conn, tenant())
    const commit = conn`commit`
    await Promise.all([begin, authorized, rows, asFunction, afterRead, commit])
    if (pending) applyKeyOutcome(c, pending, ((await authorized) as KeyAuthorization[])[0]!, pending.scope)
    return { rows: await rows, after: await afterRead }
  } catch (err) {
    // A failed statement aborts the transaction and turns the COMMIT into a rollback; make sure.
    await conn`rollback`.catch(() => {})
    throw err
  } finally {
    conn.release()
  }
}

/** Charges the caller's address to the unauthenticated bucket: for public routes. */
export function limitAnonymous(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get('deps')
    const rl = await takeRateLimit(
      deps.sql,
      `ip:${clientAddress(c)}`,
      rateLimits.unauthenticated,
      deps.clock.now(),
    )
    c.set('rateLimit', rl)
    if (!rl.allowed)
      throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
    await next()
  }
}
