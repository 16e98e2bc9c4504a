import type { RequestClaims } from './db.ts'
import { ServiceError } from './errors.ts'

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
  | (TenantCallerBase & { kind: 'platform_key' | 'tool_key'; keyId: string; scopes: string[] })
  /** A signed-in user who has no tenant yet (may only create one). */
  | { kind: 'user_without_tenant'; userId: string; email?: string }
  | { kind: 'service' }
  | { kind: 'anon' }

export type CallerKind = Caller['kind']
/** A caller acting for one tenant: a member user, or a key acting as its creator. */
export type TenantCaller = Extract<Caller, { tenantId: string }>

/** Users act with their membership role; keys act as their creator under row-level security. */
export function requireRole(caller: Caller | undefined, roles: readonly MemberRole[]): void {
  if (caller?.kind === 'user' && !roles.includes(caller.role)) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `This action needs the role ${roles.join(' or ')}`)
  }
}
