import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { type AiProvider, defaultModels } from '@shared/services/generation/schema.ts'

/** Which provider, model and credential a turn uses; read as the caller (members see both tables). */

interface SettingsRow {
  provider: AiProvider | null
  model: string | null
  credential_environment: 'development' | 'staging' | 'production'
  instructions: string | null
}

export interface ModelChoice {
  provider: AiProvider | null
  model: string | null
  environment: 'development' | 'staging' | 'production'
  instructions: string | null
  hasCredential: boolean
}

/** Whether the tenant has an unexpired credential of this provider and environment (no use recorded). */
async function hasCredential(
  db: Queryable,
  tenantId: string,
  provider: AiProvider,
  environment: string,
  now: Date,
) {
  const [row] = await db`
    select 1 from public.credentials c join public.providers p on p.id = c.provider_id
    where c.tenant_id = ${tenantId} and p.slug = ${provider} and c.environment = ${environment}
      and (c.expires_at is null or c.expires_at > ${now})
    limit 1`
  return Boolean(row)
}

/**
 * The tenant's setting, and with provider unset the provider of its AI credential (OpenAI first).
 * As the caller: both tables are visible to every member under RLS.
 */
export async function modelChoice(ctx: ServiceContext, tenantId: string): Promise<ModelChoice> {
  const now = ctx.clock.now()
  const { s, found } = await ctx.asTenant(async (tx) => {
    const [s] = await tx<SettingsRow[]>`
      select provider, model, credential_environment, instructions
      from public.assistant_settings where tenant_id = ${tenantId}`
    const environment = s?.credential_environment ?? 'production'
    const candidates: AiProvider[] = s?.provider ? [s.provider] : ['openai', 'anthropic']
    for (const provider of candidates) {
      if (await hasCredential(tx, tenantId, provider, environment, now)) return { s, found: provider }
    }
    return { s, found: null }
  })
  const environment = s?.credential_environment ?? 'production'
  if (found)
    return {
      provider: found,
      model: s?.model ?? defaultModels[found],
      environment,
      instructions: s?.instructions ?? null,
      hasCredential: true,
    }
  return {
    provider: s?.provider ?? null,
    model: s?.model ?? (s?.provider ? defaultModels[s.provider] : null),
    environment,
    instructions: s?.instructions ?? null,
    hasCredential: false,
  }
}

export function noCredentialError(choice: ModelChoice): ServiceError {
  const which =
    choice.provider === 'anthropic'
      ? 'an Anthropic credential'
      : choice.provider === 'openai'
        ? 'an OpenAI credential'
        : 'an OpenAI or Anthropic credential'
  return new ServiceError(
    'UNPROCESSABLE',
    `The assistant needs an AI model: add ${which} (category AI) for the ${choice.environment} environment under Credentials (POST /api/credentials)`,
  )
}
