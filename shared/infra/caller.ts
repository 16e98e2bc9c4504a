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

/**
 * A member's role, highest first. `member` is the newsroom's editor (publishes); `contributor`
 * writes and edits its own drafts and asks for review (docs/adr/0027-contributor-role.md).
 */
export type MemberRole = 'owner' | 'admin' | 'member' | 'contributor'

/** The roles that publish, schedule, unpublish and delete any article, and manage sites and tags. */
export const editorRoles = ['owner', 'admin', 'member'] as const satisfies readonly MemberRole[]

interface TenantCallerBase {
  tenantId: string
  /** The acting user: the signed-in user, or the user who created the key. */
  userId: string
  /**
   * The acting user's role in the tenant as read when the request was authenticated: a key's
   * creator's current role, not the one they had when they made it (the key's verification and
   * the role are one read, dropped together when the membership changes).
   */
  role: MemberRole
  /** Claims for withTenant(): row-level security sees this caller as its user. */
  claims: RequestClaims
}

export type Caller =
  | (TenantCallerBase & { kind: 'user'; email?: string })
  | (TenantCallerBase & {
      /**
       * `published_key`: a platform key made with published_only. It is a caller kind of its own,
       * so a route takes it only by naming it in its `allow` (route-auth.ts: `publishedReader`);
       * every other route refuses it, and row-level security shows it published content only
       * (docs/adr/0029-published-only-key-is-its-own-caller.md).
       */
      kind: 'platform_key' | 'tool_key' | 'published_key'
      keyId: string
      scopes: string[]
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
  /**
   * A WebSub hub calling a source's push callback: no credentials, only the unguessable token in
   * the callback's address, which the route checks. A caller kind of its own so that only the route
   * that names it (route-auth.ts: `websubHub`) lets it in (docs/adr/0042-websub-push-for-feeds.md).
   */
  | { kind: 'websub_hub' }

export type CallerKind = Caller['kind']
/** A caller acting for one tenant: a member user, or a key acting as its creator. */
export type TenantCaller = Extract<Caller, { tenantId: string }>

/**
 * The caller for service work done for one tenant with no person behind it (the service-role key
 * naming a tenant, a job nobody started): the tenant's first owner, so the work can do no more in
 * the tenant than its owner could, and another tenant's rows stay invisible to it. NOT_FOUND for
 * an unknown tenant.
 */
export async function serviceCallerFor(db: Queryable, tenantId: string): Promise<TenantCaller> {
  const [row] = await db<{ user_id: string; role: MemberRole }[]>`
    select user_id, role from public.tenant_members
    where tenant_id = ${tenantId} and role = 'owner'
    order by created_at, user_id
    limit 1`
  if (!row) throw notFound('Tenant')
  return serviceCaller(tenantId, row.user_id, row.role)
}

/**
 * The caller for work a person asked for and that runs later (a job, a resumed turn, an
 * automation's run): that person, with their role at the time the work runs, never anyone else.
 * Refused (INSUFFICIENT_PERMISSIONS) when they are no longer a member, or hold none of `roles`.
 */
export async function actingCallerFor(
  db: Queryable,
  tenantId: string,
  userId: string,
  roles?: readonly MemberRole[],
): Promise<TenantCaller> {
  const [row] = await db<{ role: MemberRole }[]>`
    select role from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
  if (!row)
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      'The member who asked for this work has left the tenant',
    )
  const caller = serviceCaller(tenantId, userId, row.role)
  if (roles) requireRole(caller, roles)
  return caller
}

function serviceCaller(tenantId: string, userId: string, role: MemberRole): TenantCaller {
  return {
    kind: 'service',
    tenantId,
    userId,
    role,
    claims: { sub: userId, role: 'authenticated', app_metadata: { tenant_id: tenantId } },
  }
}

/**
 * Every action that needs a role checks the acting person's role: a user's own, a key's or an
 * OAuth grant's creator's, a job's or an automation's creator's (each current when the request or
 * the work began). Keys do not carry a role of their own.
 */
export function requireRole(caller: Caller | undefined, roles: readonly MemberRole[]): void {
  if (!caller || !('tenantId' in caller))
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This action needs the role ${roles.join(' or ')}`)
  if (!roles.includes(caller.role)) {
    const whose =
      caller.kind === 'user' ? '' : caller.kind === 'service' ? ' (its creator)' : " (the key's creator)"
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      `This action needs the role ${roles.join(' or ')}${whose}`,
    )
  }
}
