import type { z } from '@hono/zod-openapi'
import { type Caller, requireRole } from '@shared/infra/caller.ts'
import { randomBase62, sha256Hex } from '@shared/infra/crypto.ts'
import { privilegeErrorAs, type Tx, withTenant } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { applyAuthChangesNow } from '@shared/infra/hot-path/hot-path.ts'
import type {
  acceptedInvitationSchema,
  createInvitationBody,
  invitationPreviewSchema,
  invitationSchema,
  Role,
} from './schema.ts'
import { userClaims } from './tenants.ts'

/**
 * Invitations by e-mail: a single-use link (only its hash is stored) that expires, sent through
 * the notifier in the same commit as the invitation; accepting it joins the tenant.
 */

/** How long an invitation link stays valid. */
const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000

export type Invitation = z.infer<typeof invitationSchema>
export type AcceptedInvitation = z.infer<typeof acceptedInvitationSchema>
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>
export type CreateInvitationInput = z.output<typeof createInvitationBody>

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

const invitationColumns = 'id, email, role, invited_by, expires_at, accepted_at, revoked_at, created_at'

function invitationStatus(row: Pick<InvitationRow, 'accepted_at' | 'revoked_at' | 'expires_at'>, now: Date) {
  if (row.accepted_at) return 'accepted' as const
  if (row.revoked_at) return 'revoked' as const
  return row.expires_at <= now ? ('expired' as const) : ('pending' as const)
}

const presentInvitation = (row: InvitationRow, now: Date): Invitation => ({
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
 * The e-mail's link: the dashboard's invitation page, which shows the tenant and role (GET
 * /api/invitations/accept), signs the invitee up or in and accepts. The token travels in the
 * fragment, so it never reaches a server's access log.
 */
function invitationLink(dashboardUrl: string, token: string): string {
  const url = new URL(dashboardUrl)
  url.hash = `/invitation/${token}`
  return url.toString()
}

/** Owners and admins invite; only owners invite owners. Inviting again replaces the earlier link. */
export async function createInvitation(
  ctx: ServiceContext,
  input: CreateInvitationInput,
): Promise<Invitation> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  if (input.role === 'owner') requireRole(caller, ['owner'])
  const now = ctx.clock.now()
  const token = `inv_${randomBase62(32)}`
  const tokenHash = sha256Hex(token)
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)
  const link = invitationLink(ctx.config.DASHBOARD_URL, token)
  const row = await ctx
    .asTenant(async (tx) => {
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
      await ctx.notifier.enqueue(tx, {
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
    })
    .catch(privilegeErrorAs('Only owners and admins invite'))
  ctx.onOutboxCommitted?.()
  return presentInvitation(row, now)
}

/** The tenant's invitations, newest first (at most 200). */
export async function listInvitations(ctx: ServiceContext): Promise<Invitation[]> {
  const { caller } = ctx
  const rows = await ctx.asTenant(
    (tx) => tx<InvitationRow[]>`
      select ${tx.unsafe(invitationColumns)} from public.invitations
      where tenant_id = ${caller.tenantId} order by created_at desc, id desc limit 200`,
  )
  const now = ctx.clock.now()
  return rows.map((r) => presentInvitation(r, now))
}

/** Revokes a pending invitation (owners and admins); revoking twice is not an error. */
export async function revokeInvitation(ctx: ServiceContext, id: string): Promise<Invitation> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  const now = ctx.clock.now()
  const row = await ctx.asTenant(async (tx: Tx) => {
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
  return presentInvitation(row, now)
}

/** The signed-in user whose e-mail was invited joins the tenant (with or without a tenant of their own). */
export async function acceptInvitation(
  deps: FunctionDeps,
  caller: Caller | undefined,
  token: string,
): Promise<AcceptedInvitation> {
  const claims = userClaims(caller)
  const now = deps.clock.now()
  const tokenHash = sha256Hex(token)
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
      // A membership this instance may have cached as absent: the new member's next request here
      // sees the join at once (other instances within the change feed's bound).
      await applyAuthChangesNow(deps)
      return { tenant_id: result.tenant_id, role: result.role, refresh_session: true as const }
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
}

/** What an invitation link invites to, for anyone holding it; does not use it up. */
export async function previewInvitation(deps: FunctionDeps, token: string): Promise<InvitationPreview> {
  const [row] = await deps.sql<
    { tenant_name: string; email: string; role: Role; expires_at: Date; accepted: boolean }[]
  >`select * from private.preview_invitation(${sha256Hex(token)})`
  if (!row) throw notFound('Invitation')
  const now = deps.clock.now()
  const status = row.accepted ? 'accepted' : row.expires_at <= now ? 'expired' : 'pending'
  return {
    tenant_name: row.tenant_name,
    email: row.email,
    role: row.role,
    expires_at: row.expires_at.toISOString(),
    status,
  }
}
