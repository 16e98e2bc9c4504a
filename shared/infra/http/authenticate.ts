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

interface KeyAuthRow {
  outcome: 'ok' | 'rate_limited' | 'forbidden' | 'invalid' | 'ip_limited'
  key_id: string | null
  tenant_id: string | null
  user_id: string | null
  scopes: string[] | null
  rate_limit: number
  tat: Date
  last_used_at: Date | null
}

/**
 * The one key-authentication statement (private.authenticate_key), for a standalone or pipelined
 * call. Synchronous on purpose: a pipeline issues its statements in call order.
 */
function keyAuthQuery(
  q: Queryable,
  c: Context<AppEnv>,
  presented: PresentedKey,
  scope: Scope | undefined,
  sessionClaims = false,
) {
  return q<KeyAuthRow[]>`
    select * from private.authenticate_key(${presented.hash}, ${presented.family}, ${scope ?? null},
      ${`ip:${clientAddress(c)}`}, ${rateLimits.unauthenticated}, ${rateLimits.toolServer}, ${c.var.deps.clock.now()}, ${sessionClaims})`
}

/**
 * Turns the key statement's outcome into the caller (or today's refusals: 401 for an invalid key,
 * 429 over the key's or the address's limit, 403 without the scope) and the rate-limit headers.
 */
function applyKeyOutcome(
  c: Context<AppEnv>,
  presented: PresentedKey,
  row: KeyAuthRow,
  scope: Scope | undefined,
) {
  const deps = c.var.deps
  const now = deps.clock.now()
  const rl = rateLimitDecision(
    row.rate_limit,
    row.outcome !== 'rate_limited' && row.outcome !== 'ip_limited',
    row.tat,
    now,
  )
  c.set('rateLimit', rl)
  switch (row.outcome) {
    case 'ip_limited':
      throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
    case 'invalid':
      throw new ServiceError('AUTH_REQUIRED', 'Invalid, expired or revoked API key')
    case 'rate_limited':
      throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
    case 'forbidden':
      throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${scope}`)
  }
  const keyId = row.key_id!
  // Keep last_used_at at minute resolution: one write per key per minute, off the request path.
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    deps.sql`update public.api_keys set last_used_at = ${now}
             where id = ${keyId} and (last_used_at is null or last_used_at < ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`.catch(
      (e) => deps.logger.warn('last_used_at update failed', { key_id: keyId, error: String(e) }),
    )
  }
  c.set('caller', {
    kind: presented.kind,
    keyId,
    tenantId: row.tenant_id!,
    userId: row.user_id!,
    scopes: row.scopes!,
    claims: {
      sub: row.user_id!,
      role: 'authenticated',
      app_metadata: { tenant_id: row.tenant_id! },
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
      const [row] = await keyAuthQuery(deps.sql, c, presented, options.scope)
      applyKeyOutcome(c, presented, row!, options.scope)
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
 * A tenant read in one round trip for every caller. For a key on a `pipelined` route these go out
 * together on one connection: the key statement (autocommit: it takes the rate limit and leaves
 * the key's claims in the session setting app.key_claims, or clears it), `before` (e.g. metering,
 * also autocommit, with the function's own privileges), then BEGIN, the claims and role
 * authenticated for the transaction, the read, COMMIT. Locks taken by the rate limit and the
 * metering end with their own statements, so a key's requests never queue behind each other's
 * reads. Both steps name the tenant through `tenant`, taken from the claims in SQL, so for a
 * refused key they touch nothing (no tenant, no rows under row-level security) and their results
 * are discarded; the refusal is exactly the middleware's. Users were authenticated by the
 * middleware; their claims come from it.
 */
export async function readAuthenticated<T, B = undefined>(
  c: Context<AppEnv>,
  read: (q: Queryable, tenant: TenantRef) => Promise<T>,
  before?: (q: Queryable, tenant: TenantRef) => Promise<B>,
): Promise<{ rows: T; before: B | undefined }> {
  const pending = c.var.pendingKey
  const conn = await c.var.deps.sql.reserve()
  try {
    const caller = pending ? undefined : tenantCaller(c)
    const keyClaims = conn`nullif(current_setting('app.key_claims', true), '')`
    const tenant: TenantRef = caller
      ? caller.tenantId
      : conn`(${keyClaims}::jsonb #>> '{app_metadata,tenant_id}')::uuid`
    const auth = pending ? keyAuthQuery(conn, c, pending, pending.scope, true) : undefined
    const early = before?.(conn, tenant)
    const steps: Promise<unknown>[] = [conn`begin`]
    steps.push(
      caller
        ? conn`select set_config('request.jwt.claims', ${JSON.stringify(caller.claims)}, true), set_config('role', 'authenticated', true)`
        : conn`select set_config('request.jwt.claims', coalesce(${keyClaims}, ''), true), set_config('role', 'authenticated', true)`,
    )
    const rows = read(conn, tenant)
    steps.push(rows, conn`commit`)
    if (pending) steps.push(conn`select set_config('app.key_claims', '', false)`)
    await Promise.all([auth, early, ...steps])
    if (pending) applyKeyOutcome(c, pending, (await auth!)[0]!, pending.scope)
    return { rows: await rows, before: await early }
  } catch (err) {
    // A failed statement aborts the transaction and turns the COMMIT into a rollback; make sure,
    // and leave no key's claims on the connection.
    await conn`rollback`.catch(() => {})
    await conn`select set_config('app.key_claims', '', false)`.catch(() => {})
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
