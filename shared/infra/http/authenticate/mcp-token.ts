import type { MemberRole } from '@shared/infra/caller.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { LAST_USED_RESOLUTION_MS } from '@shared/infra/hot-path/last-used.ts'
import { hashKey } from '@shared/infra/keys.ts'
import { rateLimitDecision, rateLimits } from '@shared/infra/rate-limit.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { addressBucket } from './refusals.ts'

/** OAuth access tokens the tool server issues to MCP clients (functions/mcp-sse/oauth). */
export const MCP_ACCESS_TOKEN_PREFIX = 'mcpat_'

interface McpTokenAuthorization {
  grant_id: string | null
  tenant_id: string | null
  user_id: string | null
  member_role: MemberRole | null
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
export async function authorizeMcpToken(c: Context<AppEnv>, token: string) {
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
    role: grant.member_role!,
    scopes: grant.scopes!,
    claims: { sub: grant.user_id!, role: 'authenticated', app_metadata: { tenant_id: grant.tenant_id! } },
  })
}
