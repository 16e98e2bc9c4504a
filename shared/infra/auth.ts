import type { Queryable, RequestClaims } from './db.ts'
import { notFound, ServiceError } from './errors.ts'

/** Who is calling, as the route middleware established it. Services see only TenantCaller. */

/** The spec's seven platform scopes. */
export const scopes = [
  'content:read',
  'content:write',
  'assistant:invoke',
  'analytics:read',
  'users:read',
  'users:write',
  'billing:read',
] as const
export type Scope = (typeof scopes)[number]

export type MemberRole = 'owner' | 'admin' | 'member'

interface TenantCallerBase {
  tenantId: string
  /** The acting user: the signed-in user, or the user who created the key. */
  userId: string
  /** Claims for withTenant(): row-level security sees this caller as its user. */
  claims: RequestClaims
}

export type Caller =
  | (TenantCallerBase & { kind: 'user'; role: MemberRole; email?: string })
  | (TenantCallerBase & {
      kind: 'platform_key' | 'tool_key'
      keyId: string
      scopes: string[]
      /** A published-only key: reads published articles, their sites and tags, nothing more. */
      publishedOnly?: boolean
      /** Browser origins a published-only key answers CORS for. */
      allowedOrigins?: readonly string[]
    })
  /**
   * The service-role key acting for one named tenant (scheduled and internal calls, jobs): the
   * work runs under row-level security as the tenant's acting user (see serviceCallerFor).
   */
  | (TenantCallerBase & { kind: 'service' })
  /** A signed-in user who has no tenant yet (may only create one). */
  | { kind: 'user_without_tenant'; userId: string; email?: string }
  | { kind: 'service' }
  | { kind: 'anon' }

export type CallerKind = Caller['kind']
/** A caller acting for one tenant: a member user, or a key acting as its creator. */
export type TenantCaller = Extract<Caller, { tenantId: string }>

/**
 * The caller for service work done for one tenant. Services run every tenant query under
 * row-level security with the caller's claims, so service work for a tenant takes the claims of a
 * member: `actingUserId` (the user who asked for the work, e.g. a job's creator) while still a
 * member, else the tenant's first owner. So a scheduled run can do no more in the tenant than its
 * owner could, and another tenant's rows stay invisible to it. NOT_FOUND for an unknown tenant.
 */
export async function serviceCallerFor(
  db: Queryable,
  tenantId: string,
  actingUserId?: string | null,
): Promise<TenantCaller> {
  const [row] = await db<{ user_id: string }[]>`
    select user_id from public.tenant_members
    where tenant_id = ${tenantId} and (user_id = ${actingUserId ?? null} or role = 'owner')
    order by (user_id = ${actingUserId ?? null}) is true desc, created_at, user_id
    limit 1`
  if (!row) throw notFound('Tenant')
  return {
    kind: 'service',
    tenantId,
    userId: row.user_id,
    claims: { sub: row.user_id, role: 'authenticated', app_metadata: { tenant_id: tenantId } },
  }
}

/** Users act with their membership role; keys act as their creator under row-level security. */
export function requireRole(caller: Caller | undefined, roles: readonly MemberRole[]): void {
  if (caller?.kind === 'user' && !roles.includes(caller.role)) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This action needs the role ${roles.join(' or ')}`)
  }
}
