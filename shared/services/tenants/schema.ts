import { z } from '@hono/zod-openapi'
import { boundedJsonObject } from '@shared/infra/schemas.ts'

const plans = ['free', 'pro', 'business', 'enterprise'] as const
const roles = ['owner', 'admin', 'member', 'contributor'] as const

const tenantName = z.string().trim().min(1).max(200).openapi({ example: 'Acme Media' })

/** Settings are the tenant's own free-form JSON, bounded in size. */
const MAX_SETTINGS_BYTES = 8192
const settings = boundedJsonObject({ maxBytes: MAX_SETTINGS_BYTES }).openapi({
  description: `Free-form tenant settings (JSON object, at most ${MAX_SETTINGS_BYTES} bytes)`,
})

export const createTenantBody = z
  .object({
    name: tenantName,
    plan: z.enum(plans).default('free').openapi({
      description: 'New tenants start on Free: any other plan is refused (403); plans change through billing',
    }),
  })
  .strict()
  .openapi('CreateTenant', { example: { name: 'Acme Publishing' } })

export const updateTenantBody = z
  .object({
    name: tenantName.optional(),
    plan: z.enum(plans).optional().openapi({
      description:
        'Refused (403) for every user: plans change only through billing (POST /functions/v1/tenants/admin/tenants/{id}/plan, service role)',
    }),
    settings: settings.optional(),
  })
  .strict()
  .refine(
    (b) => b.name !== undefined || b.plan !== undefined || b.settings !== undefined,
    'nothing to change',
  )
  .openapi('UpdateTenant', { example: { name: 'Acme Media', settings: { timezone: 'Europe/Berlin' } } })

export const tenantSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: z.enum(plans),
    settings: z.record(z.string(), z.unknown()),
    role: z.enum(roles).openapi({ description: "The caller's role in the tenant" }),
    active: z.boolean().optional().openapi({ description: 'Whether it is the tenant in the access token' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Tenant')

/** The service role's plan change (billing). */
export const changePlanBody = z
  .object({ plan: z.enum(plans) })
  .strict()
  .openapi('ChangePlan', { example: { plan: 'pro' } })
export const tenantIdParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) })
export const planChangeSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    plan: z.enum(plans),
    previous_plan: z.enum(plans),
    updated_at: z.string(),
  })
  .openapi('PlanChange')

export const switchTenantBody = z
  .object({ tenant_id: z.uuid() })
  .strict()
  .openapi('SwitchTenant', { example: { tenant_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f' } })
export const switchTenantResponse = z
  .object({
    tenant_id: z.uuid(),
    role: z.enum(roles),
    refresh_session: z.literal(true).openapi({
      description:
        'The next access token carries the tenant: refresh the session (supabase.auth.refreshSession())',
    }),
  })
  .openapi('ActiveTenant')

export const memberSchema = z
  .object({ user_id: z.uuid(), email: z.string().nullable(), role: z.enum(roles), joined_at: z.string() })
  .openapi('Member')

export const updateMemberBody = z
  .object({ role: z.enum(roles) })
  .strict()
  .openapi('UpdateMember', { example: { role: 'admin' } })

export const userIdParam = z.object({ user_id: z.uuid().openapi({ param: { name: 'user_id', in: 'path' } }) })

export const createInvitationBody = z
  .object({
    email: z.email().max(254).toLowerCase().openapi({ example: 'editor@example.com' }),
    role: z.enum(roles).default('member').openapi({ description: 'Only owners invite owners' }),
  })
  .strict()
  .openapi('CreateInvitation', { example: { email: 'colleague@example.com', role: 'member' } })

export const invitationSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(roles),
    status: z.enum(['pending', 'accepted', 'expired', 'revoked']),
    invited_by: z.uuid().nullable(),
    expires_at: z.string(),
    accepted_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('Invitation')

/** Tokens are 'inv_' and 32 base62 characters (~190 bits). */
const INVITATION_TOKEN = /^inv_[0-9A-Za-z]{32}$/
const invitationToken = z.string().max(100).regex(INVITATION_TOKEN, 'not an invitation token')

export const acceptInvitationBody = z
  .object({ token: invitationToken })
  .strict()
  .openapi('AcceptInvitation', { example: { token: 'inv_the-token-from-the-invitation-e-mail' } })
export const previewInvitationQuery = z.object({ token: invitationToken })

export const acceptedInvitationSchema = z
  .object({
    tenant_id: z.uuid(),
    role: z.enum(roles),
    refresh_session: z
      .literal(true)
      .openapi({ description: 'Refresh the session to get a token for the tenant' }),
  })
  .openapi('AcceptedInvitation')

export const invitationPreviewSchema = z
  .object({
    tenant_name: z.string(),
    email: z.string(),
    role: z.enum(roles),
    expires_at: z.string(),
    status: z.string(),
  })
  .openapi('InvitationPreview')

/** The send-notifications job's counts. */
export const sendNotificationsResult = z.object({ sent: z.number(), failed: z.number() })
/** The prune-rate-limits job's count. */
export const pruneRateLimitsResult = z.object({ deleted: z.number() })

export type Plan = (typeof plans)[number]
export type Role = (typeof roles)[number]
