import { type CallerKind, type MemberRole, requireRole } from '@shared/infra/caller.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { rateLimits } from '@shared/infra/rate-limit.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { authMessages, looksLikeApiKey, refuseUnauthenticated } from './refusals.ts'

/**
 * A user's access token (a Supabase Auth JWT): verified, rate-limited per user, and the caller a
 * member of the tenant its token names (a user without a tenant only where the route allows one).
 */
export async function authenticateUser(
  c: Context<AppEnv>,
  token: string,
  allow: Set<CallerKind>,
  roles: readonly MemberRole[] | undefined,
): Promise<void> {
  const deps = c.get('deps')
  const hot = hotPathOf(deps)
  const now = deps.clock.now()
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
    if (roles) requireRole(c.get('caller'), roles)
    return
  }
  if (allow.has('user_without_tenant')) {
    c.set('caller', { kind: 'user_without_tenant', userId: claims.sub, email: claims.email })
    return
  }
  throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'The user is not a member of the tenant in its token')
}
