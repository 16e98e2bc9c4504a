import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { requireRole } from '../../shared/infra/auth.ts'
import { randomBase62, sha256Hex } from '../../shared/infra/crypto.ts'
import {
  isPgError,
  privilegeErrorAs,
  type RequestClaims,
  type Tx,
  withTenant,
} from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound, ServiceError } from '../../shared/infra/errors.ts'
import { recordEvent } from '../../shared/infra/events.ts'
import type { AppEnv } from '../../shared/infra/http/app-env.ts'
import { authenticate, limitAnonymous, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses, jsonContent } from '../../shared/infra/http/openapi.ts'
import { pruneRateLimitCounters } from '../../shared/infra/rate-limit.ts'
import {
  acceptedInvitationSchema,
  acceptInvitationBody,
  createInvitationBody,
  createTenantBody,
  idParam,
  invitationPreviewSchema,
  invitationSchema,
  memberSchema,
  type Plan,
  previewInvitationQuery,
  type Role,
  switchTenantBody,
  switchTenantResponse,
  tenantSchema,
  updateMemberBody,
  updateTenantBody,
  userIdParam,
} from '../../shared/services/tenants/schema.ts'
import { registerJobRoutes } from './routes/jobs/register.ts'

export const functionName = 'tenants'

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000

const serviceSecurity = [{ serviceRole: [] }]
const security = [{ bearer: [] }]

interface TenantRow {
  id: string
  name: string
  plan: Plan
  settings: Record<string, unknown>
  role: Role
  created_at: Date
  updated_at: Date
}

interface InvitationRow {
  id: string
  email: string
  role: Role
  invited_by: string | null
  expires_at: Date
  accepted_at: Date | null
  revoked_at: Date | null
  created_at: Date
}

const presentTenant = (row: TenantRow, activeTenantId?: string) => ({
  id: row.id,
  name: row.name,
  plan: row.plan,
  settings: row.settings,
  role: row.role,
  ...(activeTenantId !== undefined && { active: row.id === activeTenantId }),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

function invitationStatus(row: Pick<InvitationRow, 'accepted_at' | 'revoked_at' | 'expires_at'>, now: Date) {
  if (row.accepted_at) return 'accepted' as const
  if (row.revoked_at) return 'revoked' as const
  return row.expires_at <= now ? ('expired' as const) : ('pending' as const)
}

const presentInvitation = (row: InvitationRow, now: Date) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: invitationStatus(row, now),
  invited_by: row.invited_by,
  expires_at: row.expires_at.toISOString(),
  accepted_at: row.accepted_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
})

/**
 * Claims for withTenant() of any signed-in user. The RLS helpers read only `sub` (auth.uid()),
 * so a user who has no tenant yet runs with an empty app_metadata.
 */
function userClaims(c: Context<AppEnv>): RequestClaims & { email?: string } {
  const caller = c.var.caller
  if (caller.kind === 'user') return caller.claims
  if (caller.kind !== 'user_without_tenant')
    throw new ServiceError('AUTH_REQUIRED', 'A signed-in user is required')
  return {
    sub: caller.userId,
    role: 'authenticated',
    email: caller.email,
    app_metadata: {},
  } as unknown as RequestClaims
}

/** The trigger that keeps a tenant's last owner raises this. */
function asLastOwnerConflict(err: unknown): never {
  if (isPgError(err, 'P0001') && String((err as Error).message).includes('owner')) {
    throw new ServiceError('CONFLICT', 'A tenant must keep at least one owner')
  }
  throw err
}

const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})

const anyUser = authenticate({ allow: ['user', 'user_without_tenant'] })
const tenantUser = authenticate({ allow: ['user'] })

const routes = {
  createTenant: createRoute({
    method: 'post',
    path: '/',
    summary: 'Sign up a new tenant; the signed-in user becomes its owner and it becomes the active tenant',
    security,
    middleware: [anyUser] as const,
    request: body(createTenantBody),
    responses: { 201: jsonContent(tenantSchema, 'Created'), ...errorResponses(400, 401, 413, 429) },
  }),
  listTenants: createRoute({
    method: 'get',
    path: '/',
    summary: 'The tenants the signed-in user belongs to',
    security,
    middleware: [anyUser] as const,
    responses: {
      200: jsonContent(z.object({ data: z.array(tenantSchema) }), 'Tenants'),
      ...errorResponses(401, 429),
    },
  }),
  switchTenant: createRoute({
    method: 'post',
    path: '/active',
    summary: "Switch the user's active tenant (the next access token carries it; refresh the session)",
    security,
    middleware: [anyUser] as const,
    request: body(switchTenantBody),
    responses: { 200: jsonContent(switchTenantResponse, 'Switched'), ...errorResponses(400, 401, 404, 429) },
  }),
  getCurrent: createRoute({
    method: 'get',
    path: '/current',
    summary: 'The tenant of the access token',
    security,
    middleware: [tenantUser] as const,
    responses: { 200: jsonContent(tenantSchema, 'Tenant'), ...errorResponses(401, 403, 429) },
  }),
  updateCurrent: createRoute({
    method: 'patch',
    path: '/current',
    summary: 'Change the name, settings (owners and admins) or plan (owners) of the tenant',
    security,
    middleware: [tenantUser] as const,
    request: body(updateTenantBody),
    responses: { 200: jsonContent(tenantSchema, 'Tenant'), ...errorResponses(400, 401, 403, 413, 429) },
  }),
  listMembers: createRoute({
    method: 'get',
    path: '/current/members',
    summary: "The tenant's members",
    security,
    middleware: [tenantUser] as const,
    responses: {
      200: jsonContent(z.object({ data: z.array(memberSchema) }), 'Members'),
      ...errorResponses(401, 403, 429),
    },
  }),
  updateMember: createRoute({
    method: 'patch',
    path: '/current/members/{user_id}',
    summary: "Change a member's role (owners and admins; only owners grant or take the owner role)",
    security,
    middleware: [tenantUser] as const,
    request: { params: userIdParam, ...body(updateMemberBody) },
    responses: { 200: jsonContent(memberSchema, 'Member'), ...errorResponses(400, 401, 403, 404, 409, 429) },
  }),
  removeMember: createRoute({
    method: 'delete',
    path: '/current/members/{user_id}',
    summary: 'Remove a member (owners and admins), or leave (anyone); the last owner cannot go',
    security,
    middleware: [tenantUser] as const,
    request: { params: userIdParam },
    responses: { 204: { description: 'Removed' }, ...errorResponses(400, 401, 403, 404, 409, 429) },
  }),
  createInvitation: createRoute({
    method: 'post',
    path: '/invitations',
    summary: 'Invite someone by e-mail (owners and admins); the link is single use and expires in 7 days',
    security,
    middleware: [tenantUser] as const,
    request: body(createInvitationBody),
    responses: {
      201: jsonContent(invitationSchema, 'Invited'),
      ...errorResponses(400, 401, 403, 409, 413, 429),
    },
  }),
  listInvitations: createRoute({
    method: 'get',
    path: '/invitations',
    summary: "The tenant's invitations, newest first",
    security,
    middleware: [tenantUser] as const,
    responses: {
      200: jsonContent(z.object({ data: z.array(invitationSchema) }), 'Invitations'),
      ...errorResponses(401, 403, 429),
    },
  }),
  revokeInvitation: createRoute({
    method: 'delete',
    path: '/invitations/{id}',
    summary: 'Revoke a pending invitation (owners and admins)',
    security,
    middleware: [tenantUser] as const,
    request: { params: idParam },
    responses: {
      200: jsonContent(invitationSchema, 'Revoked'),
      ...errorResponses(400, 401, 403, 404, 409, 429),
    },
  }),
  acceptInvitation: createRoute({
    method: 'post',
    path: '/invitations/accept',
    summary: 'Accept an invitation as the signed-in user whose e-mail was invited',
    security,
    middleware: [anyUser] as const,
    request: body(acceptInvitationBody),
    responses: {
      200: jsonContent(acceptedInvitationSchema, 'Joined'),
      ...errorResponses(400, 401, 403, 404, 409, 422, 429),
    },
  }),
  previewInvitation: createRoute({
    method: 'get',
    path: '/invitations/accept',
    summary: 'What an invitation link invites to (does not use it up)',
    middleware: [limitAnonymous()] as const,
    request: { query: previewInvitationQuery },
    responses: { 200: jsonContent(invitationPreviewSchema, 'Invitation'), ...errorResponses(400, 404, 429) },
  }),
  sendNotifications: createRoute({
    method: 'post',
    path: '/jobs/send-notifications',
    summary: 'Job: send queued e-mail notifications (service role only)',
    security: serviceSecurity,
    responses: {
      200: jsonContent(z.object({ sent: z.number(), failed: z.number() }), 'Counts'),
      ...errorResponses(401),
    },
  }),
  pruneRateLimits: createRoute({
    method: 'post',
    path: '/jobs/prune-rate-limits',
    summary: 'Job: delete finished rate-limit windows (service role only)',
    security: serviceSecurity,
    responses: { 200: jsonContent(z.object({ deleted: z.number() }), 'Count'), ...errorResponses(401) },
  }),
}

const tenantColumns = 't.id, t.name, t.plan, t.settings, t.created_at, t.updated_at'
const invitationColumns = 'id, email, role, invited_by, expires_at, accepted_at, revoked_at, created_at'

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tenants, teams, invitations, notifications')

  app.use('/jobs/*', authenticate({ allow: ['service'] }))
  registerJobRoutes(app)
  app.openapi(routes.sendNotifications, async (c) => c.json(await deps.notifier.sendPending(), 200))
  app.openapi(routes.pruneRateLimits, async (c) =>
    c.json({ deleted: await pruneRateLimitCounters(deps.sql, deps.clock.now()) }, 200),
  )

  app.openapi(routes.createTenant, async (c) => {
    const input = c.req.valid('json')
    const claims = userClaims(c)
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, claims, async (tx) => {
      const [created] = await tx<
        { id: string }[]
      >`select private.create_tenant(${input.name}, ${input.plan}) as id`
      const [tenant] = await tx<TenantRow[]>`
        select ${tx.unsafe(tenantColumns)}, 'owner' as role from public.tenants t where t.id = ${created!.id}`
      await recordEvent(tx, {
        tenantId: tenant!.id,
        type: 'tenant.created',
        at: now,
        data: { tenant_id: tenant!.id, name: tenant!.name, plan: tenant!.plan, owner_user_id: claims.sub },
      })
      return tenant!
    })
    deps.onOutboxCommitted?.()
    return c.json(presentTenant(row, row.id), 201)
  })

  app.openapi(routes.listTenants, async (c) => {
    const claims = userClaims(c)
    const rows = await withTenant(
      deps.sql,
      claims,
      (tx) => tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
      join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${claims.sub}
      order by m.created_at, t.id`,
    )
    const active = claims.app_metadata?.tenant_id ?? ''
    return c.json({ data: rows.map((r) => presentTenant(r, active)) }, 200)
  })

  app.openapi(routes.switchTenant, async (c) => {
    const { tenant_id } = c.req.valid('json')
    const claims = userClaims(c)
    const role = await withTenant(deps.sql, claims, async (tx) => {
      const [switched] = await tx<{ ok: boolean }[]>`select private.set_active_tenant(${tenant_id}) as ok`
      if (!switched!.ok) return null
      const [m] = await tx<{ role: Role }[]>`
        select role from public.tenant_members where tenant_id = ${tenant_id} and user_id = ${claims.sub}`
      return m!.role
    })
    if (!role) throw notFound('Tenant')
    return c.json({ tenant_id, role, refresh_session: true as const }, 200)
  })

  app.openapi(routes.getCurrent, async (c) => {
    const caller = tenantCaller(c)
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<TenantRow[]>`
      select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
      join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${caller.userId}
      where t.id = ${caller.tenantId}`,
    )
    if (!row) throw notFound('Tenant')
    return c.json(presentTenant(row, caller.tenantId), 200)
  })

  app.openapi(routes.updateCurrent, async (c) => {
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    if (input.plan !== undefined) requireRole(c.var.caller, ['owner'])
    const now = deps.clock.now()
    const { row, changed } = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [before] = await tx<TenantRow[]>`
        select ${tx.unsafe(tenantColumns)}, m.role from public.tenants t
        join public.tenant_members m on m.tenant_id = t.id and m.user_id = ${caller.userId}
        where t.id = ${caller.tenantId} for update of t`
      if (!before) throw notFound('Tenant')
      const next = {
        name: input.name ?? before.name,
        plan: input.plan ?? before.plan,
        settings: input.settings ?? before.settings,
      }
      const changed = (['name', 'plan', 'settings'] as const).filter(
        (f) => JSON.stringify(canonical(next[f])) !== JSON.stringify(canonical(before[f])),
      )
      if (changed.length === 0) return { row: before, changed }
      const [after] = await tx<TenantRow[]>`
        update public.tenants t set name = ${next.name}, plan = ${next.plan},
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
    if (changed.length > 0) deps.onOutboxCommitted?.()
    return c.json(presentTenant(row, caller.tenantId), 200)
  })

  app.openapi(routes.listMembers, async (c) => {
    const caller = tenantCaller(c)
    const rows = await withTenant(deps.sql, caller.claims, (tx) => memberList(tx, caller.tenantId))
    return c.json({ data: rows }, 200)
  })

  app.openapi(routes.updateMember, async (c) => {
    const { user_id } = c.req.valid('param')
    const { role } = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const member = await withTenant(deps.sql, caller.claims, async (tx) => {
      // No FOR UPDATE: that needs the update policy, which an admin fails on an owner's row (403
      // below, not 404). The update's policy re-checks the row's latest version.
      const [target] = await tx<{ role: Role }[]>`
        select role from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${user_id}`
      if (!target) throw notFound('Member')
      if (
        (target.role === 'owner' || role === 'owner') &&
        caller.kind === 'user' &&
        caller.role !== 'owner'
      ) {
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners grant or take the owner role')
      }
      const updated = await tx`
        update public.tenant_members set role = ${role} where tenant_id = ${caller.tenantId} and user_id = ${user_id}
        returning user_id`.catch(privilegeErrorAs('Only owners grant or take the owner role'))
      // RLS let nothing through: the caller lost the owner role, or the member left, meanwhile.
      if (updated.length === 0) await refusedOrGone(tx, caller.tenantId, user_id)
      return (await memberList(tx, caller.tenantId)).find((m) => m.user_id === user_id)!
    }).catch(asLastOwnerConflict)
    return c.json(member, 200)
  })

  app.openapi(routes.removeMember, async (c) => {
    const { user_id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const leaving = user_id === caller.userId
    if (!leaving) requireRole(c.var.caller, ['owner', 'admin'])
    await withTenant(deps.sql, caller.claims, async (tx) => {
      // No FOR UPDATE: a member leaving may not lock rows; the last-owner trigger locks the tenant.
      const [target] = await tx<{ role: Role }[]>`
        select role from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${user_id}`
      if (!target) throw notFound('Member')
      if (!leaving && target.role === 'owner' && caller.kind === 'user' && caller.role !== 'owner') {
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners remove owners')
      }
      const deleted = await tx`
        delete from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${user_id} returning user_id`
      if (deleted.length === 0) await refusedOrGone(tx, caller.tenantId, user_id)
    }).catch(asLastOwnerConflict)
    return c.body(null, 204)
  })

  app.openapi(routes.createInvitation, async (c) => {
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    if (input.role === 'owner') requireRole(c.var.caller, ['owner'])
    const now = deps.clock.now()
    const token = `inv_${randomBase62(32)}`
    const tokenHash = await sha256Hex(token)
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)
    const link = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/api/invitations/accept?token=${token}`
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [member] = await tx<
        { yes: boolean }[]
      >`select private.is_member_email(${caller.tenantId}, ${input.email}) as yes`
      if (member!.yes) throw new ServiceError('CONFLICT', `${input.email} is already a member of this tenant`)
      const [tenant] = await tx<
        { name: string }[]
      >`select name from public.tenants where id = ${caller.tenantId}`
      // Inviting again replaces the earlier link: only the newest one works.
      await tx`update public.invitations set revoked_at = ${now}
               where tenant_id = ${caller.tenantId} and email = ${input.email} and accepted_at is null and revoked_at is null`
      const [created] = await tx<InvitationRow[]>`
        insert into public.invitations (tenant_id, email, role, token_hash, invited_by, expires_at, created_at)
        values (${caller.tenantId}, ${input.email}, ${input.role}, ${tokenHash}, ${caller.userId}, ${expiresAt}, ${now})
        returning ${tx.unsafe(invitationColumns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'user.invited',
        at: now,
        data: {
          invitation_id: created!.id,
          email: created!.email,
          role: created!.role,
          invited_by: caller.userId,
          expires_at: expiresAt.toISOString(),
        },
      })
      // Tenants may not write e-mails (they could mail anyone anything): the e-mail row is the
      // service's. Leaving the role for the rest of this transaction keeps the invitation, its
      // event and its e-mail in one commit; the user's writes above were checked by RLS.
      await tx`select set_config('role', 'none', true)`
      await deps.notifier.enqueue(tx, {
        tenantId: caller.tenantId,
        kind: 'user.invited',
        recipient: input.email,
        subject: `You are invited to join ${tenant!.name}`,
        body:
          `You have been invited to join "${tenant!.name}" as ${input.role}.\n\n` +
          `Accept the invitation (sign in with ${input.email}): ${link}\n\n` +
          `The link can be used once and expires on ${expiresAt.toISOString()}.`,
        dedupeKey: `invitation:${created!.id}`,
      })
      return created!
    }).catch(privilegeErrorAs('Only owners and admins invite'))
    deps.onOutboxCommitted?.()
    return c.json(presentInvitation(row, now), 201)
  })

  app.openapi(routes.listInvitations, async (c) => {
    const caller = tenantCaller(c)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<InvitationRow[]>`
      select ${tx.unsafe(invitationColumns)} from public.invitations
      where tenant_id = ${caller.tenantId} order by created_at desc, id desc limit 200`,
    )
    const now = deps.clock.now()
    return c.json({ data: rows.map((r) => presentInvitation(r, now)) }, 200)
  })

  app.openapi(routes.revokeInvitation, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx: Tx) => {
      const [existing] = await tx<InvitationRow[]>`
        select ${tx.unsafe(invitationColumns)} from public.invitations
        where id = ${id} and tenant_id = ${caller.tenantId} for update`
      if (!existing) throw notFound('Invitation')
      if (existing.accepted_at) throw new ServiceError('CONFLICT', 'The invitation was already accepted')
      if (existing.revoked_at) return existing
      const [revoked] = await tx<InvitationRow[]>`
        update public.invitations set revoked_at = ${now} where id = ${id} returning ${tx.unsafe(invitationColumns)}`
      return revoked!
    })
    return c.json(presentInvitation(row, now), 200)
  })

  app.openapi(routes.acceptInvitation, async (c) => {
    const { token } = c.req.valid('json')
    const claims = userClaims(c)
    const now = deps.clock.now()
    const tokenHash = await sha256Hex(token)
    const result = await withTenant(deps.sql, claims, async (tx) => {
      const [r] = await tx<
        { outcome: string; invitation_id: string; tenant_id: string; role: Role; email: string }[]
      >`
        select * from private.accept_invitation(${tokenHash}, ${now})`
      if (r!.outcome === 'accepted') {
        await recordEvent(tx, {
          tenantId: r!.tenant_id,
          type: 'user.joined',
          at: now,
          data: { user_id: claims.sub, email: r!.email, role: r!.role, invitation_id: r!.invitation_id },
        })
      }
      return r!
    })
    switch (result.outcome) {
      case 'accepted':
        deps.onOutboxCommitted?.()
        return c.json({ tenant_id: result.tenant_id, role: result.role, refresh_session: true as const }, 200)
      case 'used':
        throw new ServiceError('CONFLICT', 'This invitation has already been used')
      case 'expired':
        throw new ServiceError('UNPROCESSABLE', 'This invitation has expired; ask for a new one')
      case 'wrong_user':
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'This invitation is for another e-mail address')
      case 'already_member':
        throw new ServiceError('CONFLICT', 'You are already a member of this tenant')
      default:
        throw notFound('Invitation')
    }
  })

  app.openapi(routes.previewInvitation, async (c) => {
    const { token } = c.req.valid('query')
    const [row] = await deps.sql<
      { tenant_name: string; email: string; role: Role; expires_at: Date; accepted: boolean }[]
    >`select * from private.preview_invitation(${await sha256Hex(token)})`
    if (!row) throw notFound('Invitation')
    const now = deps.clock.now()
    const status = row.accepted ? 'accepted' : row.expires_at <= now ? 'expired' : 'pending'
    return c.json(
      {
        tenant_name: row.tenant_name,
        email: row.email,
        role: row.role,
        expires_at: row.expires_at.toISOString(),
        status,
      },
      200,
    )
  })

  return app
}

/** After RLS filtered out a member's row in a write: 404 when it is gone, else 403. */
async function refusedOrGone(tx: Tx, tenantId: string, userId: string): Promise<never> {
  const [still] =
    await tx`select 1 from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
  if (!still) throw notFound('Member')
  throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners change or remove owners')
}

async function memberList(tx: Tx, tenantId: string) {
  const rows = await tx<{ user_id: string; email: string | null; role: Role; created_at: Date }[]>`
    select * from private.tenant_member_list(${tenantId})`
  return rows.map((r) => ({
    user_id: r.user_id,
    email: r.email,
    role: r.role,
    joined_at: r.created_at.toISOString(),
  }))
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
