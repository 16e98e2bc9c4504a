import type { z } from '@hono/zod-openapi'
import { type Caller, requireRole } from '@shared/infra/caller.ts'
import { privilegeErrorAs, type RequestClaims, withTenant } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { applyAuthChangesNow } from '@shared/infra/hot-path/hot-path.ts'
import type {
  createTenantBody,
  Plan,
  Role,
  switchTenantResponse,
  tenantSchema,
  updateTenantBody,
} from './schema.ts'

/** Tenants: sign-up, the user's tenants, switching the active one, the current tenant. */

interface TenantRow {
  id: string
  name: string
  plan: Plan
  settings: Record<string, unknown>
  role: Role
  created_at: Date
  updated_at: Date
}

export type Tenant = z.infer<typeof tenantSchema>
export type ActiveTenant = z.infer<typeof switchTenantResponse>
export type CreateTenantInput = z.output<typeof createTenantBody>
export type UpdateTenantInput = z.output<typeof updateTenantBody>

const tenantColumns = 't.id, t.name, t.plan, t.settings, t.created_at, t.updated_at'

const presentTenant = (row: TenantRow, activeTenantId?: string): Tenant => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  settings: row.settings,
  role: row.role,
  ...(activeTenantId !== undefined && { active: row.id === activeTenantId }),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

/**
 * Claims for withTenant() of any signed-in user. The RLS helpers read only `sub` (auth.uid()),
 * so a user who has no tenant yet runs with an empty app_metadata.
 */
export function userClaims(caller: Caller | undefined): RequestClaims & { email?: string } {
  if (caller?.kind === 'user') return caller.claims
  if (caller?.kind !== 'user_without_tenant')
    throw new ServiceError('AUTH_REQUIRED', 'A signed-in user is required')
  return {
    sub: caller.userId,
    role: 'authenticated',
    email: caller.email,
    app_metadata: {},
  } as unknown as RequestClaims
}

/** Sign-up: the signed-in user (with or without a tenant) creates a tenant and becomes its owner. */
export async function createTenant(
  deps: FunctionDeps,
  caller: Caller | undefined,
  input: CreateTenantInput,
): Promise<Tenant> {
  const claims = userClaims(caller)
  if (input.plan !== 'free') throw planRefused()
  const now = deps.clock.now()
  const row = await withTenant(deps.sql, claims, async (tx) => {
    // The database refuses a non-free plan too, and a token whose subject is not a user.
    const [created] = await tx<{ id: string }[]>`select private.create_tenant(${input.name}, 'free') as id`
    const [tenant] = await tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, 'owner' as role from public.tenants t where t.id = ${created!.id}`
    await recordEvent(tx, {
      tenantId: tenant!.id,
      type: 'tenant.created',
      at: now,
      data: { tenant_id: tenant!.id, name: tenant!.name, plan: tenant!.plan, owner_user_id: claims.sub },
    })
    return tenant!
  }).catch(privilegeErrorAs('The access token does not belong to a user who can create a tenant'))
  deps.onOutboxCommitted?.()
  return presentTenant(row, row.id)
}

/** The tenants the signed-in user belongs to, the active one marked. */
export async function listTenants(deps: FunctionDeps, caller: Caller | undefined): Promise<Tenant[]> {
  const claims = userClaims(caller)
  const rows = await withTenant(
    deps.sql,
    claims,
    (tx) => tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
      join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${claims.sub}
      order by m.created_at, t.id`,
  )
  const active = claims.app_metadata?.tenant_id ?? ''
  return rows.map((r) => presentTenant(r, active))
}

/** Makes `tenantId` the user's active tenant (the next access token carries it). */
export async function switchActiveTenant(
  deps: FunctionDeps,
  caller: Caller | undefined,
  tenantId: string,
): Promise<ActiveTenant> {
  const claims = userClaims(caller)
  const role = await withTenant(deps.sql, claims, async (tx) => {
    const [switched] = await tx<{ ok: boolean }[]>`select private.set_active_tenant(${tenantId}) as ok`
    if (!switched!.ok) return null
    const [m] = await tx<{ role: Role }[]>`
      select role from public.tenant_members where tenant_id = ${tenantId} and user_id = ${claims.sub}`
    return m!.role
  })
  if (!role) throw notFound('Tenant')
  return { tenant_id: tenantId, role, refresh_session: true as const }
}

/** The tenant of the caller's access token. */
export async function getCurrentTenant(ctx: ServiceContext): Promise<Tenant> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
      join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${caller.userId}
      where t.id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Tenant')
  return presentTenant(row, caller.tenantId)
}

/** Plans are billing data: no user sets or changes one (see changePlan). */
const planRefused = () =>
  new ServiceError(
    'INSUFFICIENT_PERMISSIONS',
    'Plans change only through billing; new tenants start on the free plan',
  )

/** Name and settings: owners and admins; never the plan. tenant.updated only when something changed. */
export async function updateCurrentTenant(ctx: ServiceContext, input: UpdateTenantInput): Promise<Tenant> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  if (input.plan !== undefined) throw planRefused()
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [before] = await tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
      join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${caller.userId}
      where t.id = ${caller.tenantId} for update of t`
    if (!before) throw notFound('Tenant')
    const next = {
      name: input.name ?? before.name,
      plan: before.plan,
      settings: input.settings ?? before.settings,
    }
    const changed = (['name', 'plan', 'settings'] as const).filter(
      (f) => JSON.stringify(canonical(next[f])) !== JSON.stringify(canonical(before[f])),
    )
    if (changed.length === 0) return { row: before, changed }
    const [after] = await tx<TenantRow[]>`
      update public.tenants t set name = ${next.name},
        settings = ${tx.json(next.settings as never)}, updated_at = ${now}
      where t.id = ${caller.tenantId}
      returning ${tx.unsafe(tenantColumns)}, ${before.role}::text as role`
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'tenant.updated',
      at: now,
      data: {
        tenant_id: caller.tenantId,
        name: after!.name,
        plan: after!.plan,
        changed,
        previous: Object.fromEntries(changed.filter((f) => f !== 'settings').map((f) => [f, before[f]])),
        updated_by: caller.userId,
      },
    })
    return { row: after!, changed }
  })
  if (changed.length > 0) ctx.onOutboxCommitted?.()
  return presentTenant(row, caller.tenantId)
}

/**
 * The one way a plan changes: the service role (billing). Today the admin endpoint
 * POST /functions/v1/tenants/admin/tenants/{id}/plan or a script calls it; later a billing
 * provider's webhook will. Writes tenant.updated (updated_by null) when the plan changed.
 */
export async function changePlan(
  deps: FunctionDeps,
  tenantId: string,
  plan: Plan,
): Promise<{ id: string; name: string; plan: Plan; previous_plan: Plan; updated_at: string }> {
  const now = deps.clock.now()
  const result = await deps.sql.begin(async (tx) => {
    const [before] = await tx<{ name: string; plan: Plan }[]>`
      select name, plan from public.tenants where id = ${tenantId} for update`
    if (!before) throw notFound('Tenant')
    if (before.plan === plan) {
      const [same] = await tx<
        { updated_at: Date }[]
      >`select updated_at from public.tenants where id = ${tenantId}`
      return { changed: false, name: before.name, previous: before.plan, updated_at: same!.updated_at }
    }
    const [after] = await tx<{ updated_at: Date }[]>`
      update public.tenants set plan = ${plan}, updated_at = ${now} where id = ${tenantId} returning updated_at`
    await recordEvent(tx, {
      tenantId,
      type: 'tenant.updated',
      at: now,
      data: {
        tenant_id: tenantId,
        name: before.name,
        plan,
        changed: ['plan'],
        previous: { plan: before.plan },
        updated_by: null,
      },
    })
    return { changed: true, name: before.name, previous: before.plan, updated_at: after!.updated_at }
  })
  if (result.changed) {
    await applyAuthChangesNow(deps)
    deps.onOutboxCommitted?.()
  }
  return {
    id: tenantId,
    name: result.name,
    plan,
    previous_plan: result.previous,
    updated_at: result.updated_at.toISOString(),
  }
}

/** JSON with sorted keys, so that settings compare by content. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    )
  }
  return value
}
