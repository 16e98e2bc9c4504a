import type { z } from '@hono/zod-openapi'
import { requireRole } from '@shared/infra/caller.ts'
import { isPgError, privilegeErrorAs, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { applyAuthChangesNow } from '@shared/infra/hot-path/hot-path.ts'
import type { memberSchema, Role } from './schema.ts'

/** A tenant's members: list, change a role, remove (or leave). The last owner always stays. */

export type Member = z.infer<typeof memberSchema>

export async function listMembers(ctx: ServiceContext): Promise<Member[]> {
  const { caller } = ctx
  return ctx.asTenant((tx) => memberList(tx, caller.tenantId))
}

/** Owners and admins change roles; only owners grant or take the owner role. */
export async function updateMemberRole(ctx: ServiceContext, userId: string, role: Role): Promise<Member> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  const member = await ctx
    .asTenant(async (tx) => {
      // No FOR UPDATE: that needs the update policy, which an admin fails on an owner's row (403
      // below, not 404). The update's policy re-checks the row's latest version.
      const [target] = await tx<{ role: Role }[]>`
      select role from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${userId}`
      if (!target) throw notFound('Member')
      if ((target.role === 'owner' || role === 'owner') && caller.role !== 'owner') {
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners grant or take the owner role')
      }
      const updated = await tx`
      update public.tenant_members set role = ${role} where tenant_id = ${caller.tenantId} and user_id = ${userId}
      returning user_id`.catch(privilegeErrorAs('Only owners grant or take the owner role'))
      // RLS let nothing through: the caller lost the owner role, or the member left, meanwhile.
      if (updated.length === 0) await refusedOrGone(tx, caller.tenantId, userId)
      return (await memberList(tx, caller.tenantId)).find((m) => m.user_id === userId)!
    })
    .catch(asLastOwnerConflict)
  await applyAuthChangesNow(ctx)
  return member
}

/** Owners and admins remove members (only owners remove owners); anyone may leave. */
export async function removeMember(ctx: ServiceContext, userId: string): Promise<void> {
  const { caller } = ctx
  const leaving = userId === caller.userId
  if (!leaving) requireRole(caller, ['owner', 'admin'])
  await ctx
    .asTenant(async (tx) => {
      // No FOR UPDATE: a member leaving may not lock rows; the last-owner trigger locks the tenant.
      const [target] = await tx<{ role: Role }[]>`
      select role from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${userId}`
      if (!target) throw notFound('Member')
      if (!leaving && target.role === 'owner' && caller.role !== 'owner') {
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners remove owners')
      }
      const deleted = await tx`
      delete from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${userId} returning user_id`
      if (deleted.length === 0) await refusedOrGone(tx, caller.tenantId, userId)
    })
    .catch(asLastOwnerConflict)
  await applyAuthChangesNow(ctx)
}

/** The trigger that keeps a tenant's last owner raises this. */
function asLastOwnerConflict(err: unknown): never {
  if (isPgError(err, 'P0001') && String((err as Error).message).includes('owner')) {
    throw new ServiceError('CONFLICT', 'A tenant must keep at least one owner')
  }
  throw err
}

/** After RLS filtered out a member's row in a write: 404 when it is gone, else 403. */
async function refusedOrGone(tx: Tx, tenantId: string, userId: string): Promise<never> {
  const [still] =
    await tx`select 1 from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
  if (!still) throw notFound('Member')
  throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners change or remove owners')
}

async function memberList(tx: Tx, tenantId: string): Promise<Member[]> {
  const rows = await tx<{ user_id: string; email: string | null; role: Role; created_at: Date }[]>`
    select * from private.tenant_member_list(${tenantId})`
  return rows.map((r) => ({
    user_id: r.user_id,
    email: r.email,
    role: r.role,
    joined_at: r.created_at.toISOString(),
  }))
}
