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
import { timingSafeEqual } from '../crypto.ts'
import { ServiceError } from '../errors.ts'
import { hashKey, parseKey } from '../keys.ts'
import { countRequest, rateLimitState, rateLimits, windowStart } from '../rate-limit.ts'
import type { AppEnv } from './app-env.ts'

/** Reads the tenant caller set by authenticate(); routes that allow only tenant callers use this. */
export function tenantCaller(c: Context<AppEnv>): TenantCaller {
  const caller: Caller | undefined = c.var.caller
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
  const caller: Caller | undefined = c.var.caller
  if (caller?.kind === 'service' && !('tenantId' in caller)) {
    if (!tenantId) {
      throw new ServiceError('VALIDATION_ERROR', 'tenant_id is required with the service-role key', {
        details: [{ field: 'tenant_id', message: 'Required with the service-role key' }],
      })
    }
    const forTenant = await serviceCallerFor(c.var.deps.sql, tenantId)
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

/** First address of X-Forwarded-For: set by Supabase's gateway and by the local platform. */
export function clientAddress(c: Context): string {
  return c.req.header('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown'
}

interface KeyRow {
  id: string
  tenant_id: string
  created_by: string | null
  family: 'platform' | 'tool_server'
  scopes: string[]
  rate_limit_per_minute: number
  expires_at: Date | null
  revoked_at: Date | null
  last_used_at: Date | null
  member_role: MemberRole | null
  hits: number | null
}

const LAST_USED_RESOLUTION_MS = 60_000

/**
 * Authenticates the caller, charges its rate-limit bucket and puts it on the context.
 * Every path costs one database round trip: the key lookup (or membership check) and the
 * counter upsert are one statement. Callers without valid credentials are charged to their
 * address's unauthenticated bucket before being refused, which also throttles key guessing.
 */
export function authenticate(options: RouteAuth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.var.deps
    const now = deps.clock.now()
    const allow = new Set(options.allow)
    const toolKey = c.req.header('x-api-key')
    const token = bearer(c)
    const apikey = c.req.header('apikey')
    // Supabase convention: `apikey` names the project (anon or service-role key) and the Bearer
    // names the caller. A Bearer that is a user token or a platform key decides who calls
    // (`apikey: <anon key>` + `Authorization: Bearer <user JWT>` acts as that user under RLS);
    // a Bearer that is itself a Supabase key, or none, leaves it to the keys, either place.
    const isKey = (k: string | undefined, expected: string) => k !== undefined && timingSafeEqual(k, expected)
    const { SUPABASE_SERVICE_ROLE_KEY: serviceKey, SUPABASE_ANON_KEY: anonKey } = deps.config
    const bearerIsCaller = token !== undefined && !isKey(token, serviceKey) && !isKey(token, anonKey)
    const supabaseKeys = bearerIsCaller ? [] : [token, apikey]

    const refuse = async (message: string): Promise<never> => {
      const rl = await countRequest(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.reset })
      throw new ServiceError('AUTH_REQUIRED', message)
    }

    // Service-role and anon keys (Supabase convention: apikey header, or Bearer).
    if (allow.has('service') && supabaseKeys.some((k) => isKey(k, serviceKey))) {
      c.set('caller', { kind: 'service' })
      return next()
    }
    if (allow.has('anon') && supabaseKeys.some((k) => isKey(k, anonKey))) {
      const rl = await countRequest(deps.sql, `ip:${clientAddress(c)}`, rateLimits.unauthenticated, now)
      c.set('rateLimit', rl)
      if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.reset })
      c.set('caller', { kind: 'anon' })
      return next()
    }

    const key = allow.has('tool_key') && toolKey ? toolKey : token
    const parsedKey = key ? parseKey(key) : null
    const keyFamily =
      parsedKey?.family === 'tool_server'
        ? 'tool_key'
        : parsedKey?.family === 'platform'
          ? 'platform_key'
          : null

    if (key && keyFamily && allow.has(keyFamily)) {
      const limitFor = (row: Pick<KeyRow, 'family' | 'rate_limit_per_minute'>) =>
        row.family === 'tool_server'
          ? Math.min(row.rate_limit_per_minute, rateLimits.toolServer)
          : row.rate_limit_per_minute
      const [row] = await deps.sql<KeyRow[]>`
        with key as (
          select k.id, k.tenant_id, k.created_by, k.family, k.scopes, k.rate_limit_per_minute,
                 k.expires_at, k.revoked_at, k.last_used_at, m.role as member_role
          from public.api_keys k
          left join public.tenant_members m on m.tenant_id = k.tenant_id and m.user_id = k.created_by
          where k.key_hash = ${await hashKey(key)}
        ), counted as (
          insert into private.rate_limit_counters (bucket, window_start, hits)
          select 'key:' || id, ${windowStart(now)}, 1 from key
          where revoked_at is null and (expires_at is null or expires_at > ${now}) and member_role is not null
          on conflict (bucket, window_start) do update set hits = private.rate_limit_counters.hits + 1
          returning hits
        )
        select key.*, (select hits from counted) as hits from key`
      // A revoked or expired key, or one whose creator has left the tenant, is no credential.
      if (!row || row.hits === null || !row.created_by || row.family !== parsedKey!.family) {
        return refuse('Invalid, expired or revoked API key')
      }
      const rl = rateLimitState(limitFor(row), row.hits, now)
      c.set('rateLimit', rl)
      if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.reset })
      if (options.scope && !row.scopes.includes(options.scope)) {
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${options.scope}`)
      }
      // Keep last_used_at at minute resolution: one write per key per minute, off the request path.
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
        deps.sql`update public.api_keys set last_used_at = ${now}
                 where id = ${row.id} and (last_used_at is null or last_used_at < ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`.catch(
          (e) => deps.logger.warn('last_used_at update failed', { key_id: row.id, error: String(e) }),
        )
      }
      c.set('caller', {
        kind: keyFamily,
        keyId: row.id,
        tenantId: row.tenant_id,
        userId: row.created_by,
        scopes: row.scopes,
        claims: {
          sub: row.created_by,
          role: 'authenticated',
          app_metadata: { tenant_id: row.tenant_id },
          api_key_id: row.id,
        },
      })
      return next()
    }

    if (token && !parsedKey && (allow.has('user') || allow.has('user_without_tenant'))) {
      const claims = await deps.jwt.verify(token)
      if (!claims) return refuse('Invalid or expired access token')
      const tenantId = claims.app_metadata.tenant_id
      const [row] = await deps.sql<{ member_role: MemberRole | null; hits: number }[]>`
        with counted as (
          insert into private.rate_limit_counters (bucket, window_start, hits)
          values (${`user:${claims.sub}`}, ${windowStart(now)}, 1)
          on conflict (bucket, window_start) do update set hits = private.rate_limit_counters.hits + 1
          returning hits
        )
        select (select role from public.tenant_members where tenant_id = ${tenantId ?? null} and user_id = ${claims.sub}) as member_role,
               (select hits from counted) as hits`
      const rl = rateLimitState(rateLimits.authenticated, row!.hits, now)
      c.set('rateLimit', rl)
      if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.reset })
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

/** Charges the caller's address to the unauthenticated bucket: for public routes. */
export function limitAnonymous(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.var.deps
    const rl = await countRequest(
      deps.sql,
      `ip:${clientAddress(c)}`,
      rateLimits.unauthenticated,
      deps.clock.now(),
    )
    c.set('rateLimit', rl)
    if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.reset })
    await next()
  }
}
