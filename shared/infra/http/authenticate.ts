import type { Context, MiddlewareHandler } from 'hono'
import {
  type Caller,
  type CallerKind,
  type MemberRole,
  requireRole,
  type Scope,
  type TenantCaller,
} from '../auth.ts'
import { timingSafeEqual } from '../crypto.ts'
import type { Queryable, TenantRef } from '../db.ts'
import { ServiceError } from '../errors.ts'
import { hashKey, parseKey } from '../keys.ts'
import { rateLimitDecision, rateLimits, takeRateLimit } from '../rate-limit.ts'
import type { AppEnv } from './app-env.ts'
import { isTrustedProxy } from './trusted-proxies.ts'

/** Reads the tenant caller set by authenticate(); routes that allow only tenant callers use this. */
export function tenantCaller(c: Context<AppEnv>): TenantCaller {
  const caller: Caller | undefined = c.var.caller
  if (!caller || !('tenantId' in caller))
    throw new ServiceError('AUTH_REQUIRED', 'A tenant credential is required')
  return caller
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
  const config = c.var.deps.config
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

/** A key as private.find_key / private.claim_key return it (nulls when it is no credential). */
interface KeyRow {
  key_id: string | null
  tenant_id: string | null
  user_id: string | null
  scopes: string[] | null
  last_used_at: Date | null
}

/** private.charge_key: the rate-limit take, from the key's bucket or the address's. */
interface ChargeRow {
  valid: boolean
  allowed: boolean
  tat: Date
  rate_limit: number
}

const chargeKey = (q: Queryable, c: Context<AppEnv>, presented: PresentedKey) =>
  q<ChargeRow[]>`
    select * from private.charge_key(${presented.hash}, ${presented.family}, ${`ip:${clientAddress(c)}`},
      ${rateLimits.unauthenticated}, ${rateLimits.toolServer}, ${c.var.deps.clock.now()})`

/**
 * Turns a key's charge and lookup into the caller, or into today's refusals: 401 for no
 * credential, 429 over the key's or the address's limit, 403 without the scope. Sets the
 * rate-limit headers either way.
 */
function applyKeyOutcome(
  c: Context<AppEnv>,
  presented: PresentedKey,
  charge: ChargeRow,
  key: KeyRow | undefined,
  scope: Scope | undefined,
) {
  const deps = c.var.deps
  const now = deps.clock.now()
  const rl = rateLimitDecision(charge.rate_limit, charge.allowed, charge.tat, now)
  c.set('rateLimit', rl)
  if (!charge.valid || !key?.key_id) {
    if (!charge.allowed)
      throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
    throw new ServiceError('AUTH_REQUIRED', 'Invalid, expired or revoked API key')
  }
  if (!charge.allowed)
    throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
  if (scope && !key.scopes!.includes(scope)) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${scope}`)
  }
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
    const deps = c.var.deps
    const now = deps.clock.now()
    const allow = new Set(options.allow)
    const toolKey = c.req.header('x-api-key')
    const token = bearer(c)
    const supabaseKey = c.req.header('apikey') ?? token

    const refuse = async (message: string): Promise<never> => {
      const rl = await takeRateLimit(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed)
        throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
      throw new ServiceError('AUTH_REQUIRED', message)
    }

    // Service-role and anon keys (Supabase convention: apikey header, or Bearer).
    if (supabaseKey && (allow.has('service') || allow.has('anon'))) {
      if (allow.has('service') && timingSafeEqual(supabaseKey, deps.config.SUPABASE_SERVICE_ROLE_KEY)) {
        c.set('caller', { kind: 'service' })
        return next()
      }
      if (allow.has('anon') && timingSafeEqual(supabaseKey, deps.config.SUPABASE_ANON_KEY)) {
        const rl = await takeRateLimit(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
        c.set('rateLimit', rl)
        if (!rl.allowed)
          throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
        c.set('caller', { kind: 'anon' })
        return next()
      }
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
        hash: await hashKey(key),
        family: keyKind === 'tool_key' ? 'tool_server' : 'platform',
        kind: keyKind,
      }
      if (options.pipelined) {
        c.set('pendingKey', { ...presented, scope: options.scope })
        return next()
      }
      // One statement: the charge (rate limit) and the lookup.
      const [row] = await deps.sql<(ChargeRow & KeyRow)[]>`
        select charge.*, key.* from private.charge_key(${presented.hash}, ${presented.family},
          ${`ip:${clientAddress(c)}`}, ${rateLimits.unauthenticated}, ${rateLimits.toolServer}, ${now}) charge
        left join private.find_key(${presented.hash}, ${presented.family}, ${rateLimits.toolServer}, ${now}) key on true`
      applyKeyOutcome(c, presented, row!, row, options.scope)
      return next()
    }

    if (token && !parsedKey && (allow.has('user') || allow.has('user_without_tenant'))) {
      const claims = await deps.jwt.verify(token)
      if (!claims) return refuse('Invalid or expired access token')
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
        if (options.roles) requireRole(c.var.caller, options.roles)
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
    if (parsedKey) return refuse(`A ${parsedKey.prefix}... key is not accepted here`)
    return refuse('Authentication required')
  }
}

/**
 * A tenant read in one round trip for every caller, in one transaction. For a key on a
 * `pipelined` route these go out together on one connection: BEGIN; the key lookup, which sets
 * the transaction's claims only when the key is a credential with the route's scope; role
 * authenticated and the read (under row-level security: no claims, no rows); back to the
 * function's own role; the rate-limit charge, which clears the claims when it refuses; `after`
 * (e.g. metering), which names the tenant through `tenant`, read from those claims; COMMIT. The
 * writes come last, so their row locks are held only until the COMMIT right behind them and a
 * key's requests do not queue behind each other's reads. For a refused key the read's rows and
 * `after`'s result are discarded (it acted for no tenant); the refusal is exactly the
 * middleware's. Users were authenticated by the middleware; their claims come from it.
 */
export async function readAuthenticated<T, A = undefined>(
  c: Context<AppEnv>,
  read: (q: Queryable, tenant: TenantRef) => Promise<T>,
  after?: (q: Queryable, tenant: TenantRef) => Promise<A>,
): Promise<{ rows: T; after: A | undefined }> {
  const deps = c.var.deps
  const pending = c.var.pendingKey
  const caller = pending ? undefined : tenantCaller(c)
  const now = deps.clock.now()
  const conn = await deps.sql.reserve()
  try {
    // Fragments are made afresh for each statement that embeds them.
    const tenant = (): TenantRef =>
      caller
        ? caller.tenantId
        : conn`(nullif(current_setting('request.jwt.claims', true), '')::jsonb #>> '{app_metadata,tenant_id}')::uuid`
    const begin = conn`begin`
    const claim = pending
      ? conn<(KeyRow & { scope_ok: boolean })[]>`
          select * from private.claim_key(${pending.hash}, ${pending.family}, ${pending.scope ?? null},
            ${rateLimits.toolServer}, ${now})`
      : conn`select set_config('request.jwt.claims', ${JSON.stringify(caller!.claims)}, true)`
    const asTenant = conn`set local role authenticated`
    const rows = read(conn, tenant())
    const asFunction = conn`set local role none`
    const charge = pending ? chargeKey(conn, c, pending) : undefined
    const afterRead = after?.(conn, tenant())
    const commit = conn`commit`
    await Promise.all([begin, claim, asTenant, rows, asFunction, charge, afterRead, commit])
    if (pending) {
      const [key] = (await claim) as KeyRow[]
      applyKeyOutcome(c, pending, (await charge!)[0]!, key, pending.scope)
    }
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
    const deps = c.var.deps
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
