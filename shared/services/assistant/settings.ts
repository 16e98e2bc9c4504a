import { privilegeErrorAs } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import type { AssistantSettings, SettingsInput } from './schema.ts'
import { DEFAULT_APPROVAL_TTL_HOURS } from './turn/approval-wait.ts'
import { modelChoice } from './turn/index.ts'

/** The tenant's assistant settings (one row, owners and admins write it) and what they resolve to. */
export async function getSettings(ctx: ServiceContext): Promise<AssistantSettings> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<Omit<AssistantSettings, 'effective'>[]>`
      select provider, model, credential_environment, instructions, approval_ttl_hours
      from public.assistant_settings where tenant_id = ${caller.tenantId}`,
  )
  const choice = await modelChoice(ctx, caller.tenantId)
  return {
    provider: row?.provider ?? null,
    model: row?.model ?? null,
    credential_environment: row?.credential_environment ?? 'production',
    instructions: row?.instructions ?? null,
    approval_ttl_hours: row?.approval_ttl_hours ?? DEFAULT_APPROVAL_TTL_HOURS,
    effective: { provider: choice.provider, model: choice.model, credential: choice.hasCredential },
  }
}

export async function updateSettings(ctx: ServiceContext, input: SettingsInput): Promise<AssistantSettings> {
  const { caller } = ctx
  const now = ctx.clock.now()
  await ctx
    .asTenant(async (tx) => {
      const [current] = await tx<
        {
          provider: string | null
          model: string | null
          credential_environment: string
          instructions: string | null
          approval_ttl_hours: number
        }[]
      >`
      select provider, model, credential_environment, instructions, approval_ttl_hours
      from public.assistant_settings where tenant_id = ${caller.tenantId}`
      const next = {
        provider: input.provider !== undefined ? input.provider : (current?.provider ?? null),
        model: input.model !== undefined ? input.model : (current?.model ?? null),
        credential_environment:
          input.credential_environment ?? current?.credential_environment ?? 'production',
        instructions: input.instructions !== undefined ? input.instructions : (current?.instructions ?? null),
        approval_ttl_hours:
          input.approval_ttl_hours ?? current?.approval_ttl_hours ?? DEFAULT_APPROVAL_TTL_HOURS,
      }
      if (current) {
        await tx`
        update public.assistant_settings
        set provider = ${next.provider}, model = ${next.model}, credential_environment = ${next.credential_environment},
            instructions = ${next.instructions}, approval_ttl_hours = ${next.approval_ttl_hours}, updated_by = ${caller.userId}, updated_at = ${now}
        where tenant_id = ${caller.tenantId}`
      } else {
        await tx`
        insert into public.assistant_settings
          (tenant_id, provider, model, credential_environment, instructions, approval_ttl_hours, updated_by, updated_at)
        values (${caller.tenantId}, ${next.provider}, ${next.model}, ${next.credential_environment}, ${next.instructions},
                ${next.approval_ttl_hours}, ${caller.userId}, ${now})`
      }
    })
    .catch(privilegeErrorAs('Only owners and admins change the assistant settings'))
  return getSettings(ctx)
}
