import { type CallerKind, type MemberRole, requireRole, type Scope } from '@shared/infra/caller.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { noteRefusedKey } from '@shared/infra/hot-path/log-request.ts'
import { rateLimits } from '@shared/infra/rate-limit.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { refuseUnauthenticated } from './refusals.ts'

/** Platform keys (svc_) and tool-server keys (mcp_, srv_): verified by hash, rate-limited per key. */

/** A key as the request presented it, before it has been verified. */
export interface PresentedKey {
  hash: string
  family: 'platform' | 'tool_server'
  kind: 'platform_key' | 'tool_key'
}

/**
 * Verifies a key (from this instance's cache, else one lookup), spends a token of its rate limit
 * (from this instance's lease, else one lease statement) and puts the caller on the context: 401
 * for no credential (charged to the address's bucket), 429 over the key's limit, 403 without the
 * scope or when the route needs a role its creator no longer holds. Sets the rate-limit headers. A cached key with tokens in hand costs the database nothing.
 */
export async function authorizeKey(
  c: Context<AppEnv>,
  presented: PresentedKey,
  scope: Scope | undefined,
  roles: readonly MemberRole[] | undefined,
  allow: ReadonlySet<CallerKind>,
) {
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
  // A published-only key is a caller of its own kind: only a route that names it takes it, so a
  // route that does not (any route added later included) refuses it (ADR 0029).
  const kind: 'published_key' | PresentedKey['kind'] = key.publishedOnly ? 'published_key' : presented.kind
  const kindRefused = !allow.has(kind)
  if (!rl.allowed || kindRefused || (scope && !key.scopes.includes(scope))) {
    // Refused before it has a caller, but still the tenant's request (its request log).
    noteRefusedKey(c, key)
    if (!rl.allowed)
      throw new ServiceError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: rl.retryAfter })
    if (kindRefused)
      throw new ServiceError(
        'INSUFFICIENT_PERMISSIONS',
        kind === 'published_key'
          ? 'A published-only key reads published content only (the Content API reads): this route needs a member or a platform key made without published_only'
          : 'This route takes published-only keys only',
      )
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This API key lacks the scope ${scope}`)
  }
  const caller = {
    kind,
    keyId: key.keyId,
    tenantId: key.tenantId,
    userId: key.userId,
    role: key.creatorRole,
    scopes: key.scopes,
    ...(key.publishedOnly && { allowedOrigins: key.allowedOrigins }),
    claims: {
      sub: key.userId,
      role: 'authenticated' as const,
      app_metadata: { tenant_id: key.tenantId },
      api_key_id: key.keyId,
      // Row-level security shows such a caller published articles only (restrictive policies).
      ...(key.publishedOnly && { published_only: true as const }),
    },
  }
  // A key acts as its creator: a route that needs a role needs it of the creator, as they are now.
  if (roles) requireRole(caller, roles)
  // last_used_at at minute resolution, written in a batch with other keys' (off the request path).
  hot.lastUsed.used(key, now.getTime())
  c.set('caller', caller)
}
