import type { FunctionDeps } from '@shared/infra/deps.ts'
import { VaultError } from '@shared/infra/vault.ts'
import { z } from 'zod'

export const environments = ['development', 'staging', 'production'] as const
export type Environment = (typeof environments)[number]

/** Who uses a credential server-side: the assistant's inference calls, automations, server functions. */
export const callerKinds = ['assistant', 'automation', 'server_function'] as const
type CredentialCallerKind = (typeof callerKinds)[number]

/** Additional authenticated data purpose: binds a ciphertext to its tenant (vault) and its row. */
export function credentialPurpose(credentialId: string): string {
  return `credential:${credentialId}`
}

/**
 * The one server-side entry point to a credential's secret. It is a module function, not a
 * route: no HTTP path returns a secret, so neither a tenant credential nor a leaked service key
 * can read one over the public API. Server code (assistant inference, automations,
 * generate-article, scrape-social, sync-affiliate) calls it with the tenant it is working for,
 * which it knows from its own trusted context (a job row, a verified request).
 *
 * It lives in shared/ because the functions that need secrets (generate-article, scrape-social,
 * sync-affiliate, the assistant) call it in-process; the credentials function owns the rest.
 */

export interface UseCredentialRequest {
  tenantId: string
  /** Provider slug ('openai') or id. */
  provider: string
  environment: Environment
  callerKind: CredentialCallerKind
  /** The calling function, e.g. 'generate-article'; kept in the usage record. */
  functionName: string
  /** Picks one credential by name when the tenant has several for the provider and environment. */
  name?: string
}

export interface UsableCredential {
  id: string
  name: string
  provider: string
  environment: Environment
  scopes: string[]
  /** An OpenAI-compatible credential's own API base URL; null: the platform's. */
  baseUrl: string | null
  expiresAt: Date | null
  /** The plaintext. Hand it to the provider call; never log, store or return it. */
  secret: string
}

export type CredentialUnavailableReason = 'not_found' | 'expired' | 'undecryptable'

/** The credential cannot be used. The message names the reason, never any secret. */
export class CredentialUnavailableError extends Error {
  override name = 'CredentialUnavailableError'
  constructor(
    readonly reason: CredentialUnavailableReason,
    message: string,
  ) {
    super(message)
  }
}

const requestSchema = z
  .object({
    tenantId: z.uuid(),
    provider: z.string().min(1).max(100),
    environment: z.enum(environments),
    callerKind: z.enum(callerKinds),
    functionName: z.string().min(1).max(100),
    name: z.string().min(1).max(100).optional(),
  })
  .strict()

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface CandidateRow {
  id: string
  name: string
  environment: Environment
  scopes: string[]
  base_url: string | null
  expires_at: Date | null
  secret_ciphertext: string
  provider_slug: string
}

export type UseCredentialDeps = Pick<FunctionDeps, 'sql' | 'vault' | 'clock' | 'logger'>

/**
 * Returns the tenant's credential for a provider and environment, decrypted, and records the
 * use (last_used_at and a usage record). With several candidates it takes a usable (unexpired)
 * one, the most recently created or rotated. Runs as the service role and scopes every query
 * by tenant explicitly; another tenant's credential is simply not found.
 */
export async function useCredential(
  deps: UseCredentialDeps,
  request: UseCredentialRequest,
): Promise<UsableCredential> {
  const parsed = requestSchema.safeParse(request)
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ')
    throw new TypeError(`useCredential: invalid request (${fields})`)
  }
  const req = parsed.data
  const now = deps.clock.now()
  const byId = UUID.test(req.provider)
  const [row] = await deps.sql<(CandidateRow & { usable: boolean })[]>`
    select c.id, c.name, c.environment, c.scopes, c.base_url, c.expires_at, c.secret_ciphertext, p.slug as provider_slug,
           (c.expires_at is null or c.expires_at > ${now}) as usable
    from public.credentials c join public.providers p on p.id = c.provider_id
    where c.tenant_id = ${req.tenantId} and c.environment = ${req.environment}
      and ${byId ? deps.sql`p.id = ${req.provider}::uuid` : deps.sql`p.slug = ${req.provider}`}
      ${req.name ? deps.sql`and lower(c.name) = lower(${req.name})` : deps.sql``}
    order by usable desc, coalesce(c.rotated_at, c.created_at) desc, c.id
    limit 1`
  const what = `${req.provider}/${req.environment}`
  if (!row) throw new CredentialUnavailableError('not_found', `No credential for ${what} in this tenant`)
  if (!row.usable) throw new CredentialUnavailableError('expired', `The credential for ${what} has expired`)

  let secret: string
  try {
    secret = await deps.vault.decrypt(req.tenantId, row.secret_ciphertext, credentialPurpose(row.id))
  } catch (err) {
    if (!(err instanceof VaultError)) throw err
    // Tampered, truncated, moved from another row, or its master key is not configured.
    deps.logger.error('credential failed to decrypt', {
      credential_id: row.id,
      tenant_id: req.tenantId,
      function_name: req.functionName,
      error: err.message,
    })
    throw new CredentialUnavailableError('undecryptable', `The credential for ${what} cannot be decrypted`)
  }

  // One statement: last_used_at and the usage record change together.
  await deps.sql`
    with used as (
      update public.credentials set last_used_at = greatest(coalesce(last_used_at, ${now}), ${now})
      where id = ${row.id} and tenant_id = ${req.tenantId}
      returning id, tenant_id
    )
    insert into public.credential_usage (tenant_id, credential_id, caller_kind, function_name, used_at)
    select tenant_id, id, ${req.callerKind}, ${req.functionName}, ${now} from used`

  return {
    id: row.id,
    name: row.name,
    provider: row.provider_slug,
    environment: row.environment,
    scopes: row.scopes,
    baseUrl: row.base_url,
    expiresAt: row.expires_at,
    secret,
  }
}

/**
 * The endpoint a model call made with this credential goes to: the credential's own base URL
 * (OpenRouter, Azure, a self-hosted server) when it has one, else the platform's for its provider.
 * Every model call (a turn's steps, its title, a generation) takes its URL from here, so a tenant's
 * key is never sent to another provider's server.
 */
export function modelBaseUrl(
  config: Pick<FunctionDeps['config'], 'OPENAI_BASE_URL' | 'ANTHROPIC_BASE_URL'>,
  provider: string,
  credential: Pick<UsableCredential, 'baseUrl'>,
): string {
  if (credential.baseUrl) return credential.baseUrl
  return provider === 'anthropic' ? config.ANTHROPIC_BASE_URL : config.OPENAI_BASE_URL
}
