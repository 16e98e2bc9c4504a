import type { z } from '@hono/zod-openapi'
import { isPgError, pgErrors, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, requireFuture, ServiceError } from '@shared/infra/errors.ts'
import {
  assertPublicUrl,
  OutboundBlockedError,
  OutboundError,
  outboundPolicyFrom,
} from '@shared/infra/outbound.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { credentialStatus } from './credential-status.ts'
import { keyHint } from './key-hint.ts'
import type {
  Credential,
  createCredentialBody,
  Environment,
  Provider,
  rotateCredentialBody,
  updateCredentialBody,
} from './schema.ts'
import { credentialPurpose } from './use-credential.ts'

/** A tenant's provider credentials: create (encrypting the secret), list, get, update, rotate, delete. */

export type CreateCredentialInput = z.output<typeof createCredentialBody>
export type UpdateCredentialInput = z.output<typeof updateCredentialBody>
export type RotateCredentialInput = z.output<typeof rotateCredentialBody>

interface CredentialRow {
  id: string
  name: string
  environment: Environment
  key_hint: string
  provider_id: string
  scopes: string[]
  base_url: string | null
  expires_at: Date | null
  last_used_at: Date | null
  rotated_at: Date | null
  created_at: Date
  updated_at: Date
  provider_slug: string
  provider_name: string
  provider_category: Provider['category']
  provider_icon_url: string
}

/** Everything a tenant may see of a credential. The ciphertext is not granted to tenants at all. */
const visibleColumns =
  'id, name, environment, key_hint, provider_id, scopes, base_url, expires_at, last_used_at, rotated_at, created_at, updated_at'

/** Selects `c` (a credentials row set or CTE) with its provider. */
const withProvider = (tx: Tx, from: string) =>
  tx.unsafe(`
  select c.id, c.name, c.environment, c.key_hint, c.provider_id, c.scopes, c.base_url, c.expires_at, c.last_used_at,
         c.rotated_at, c.created_at, c.updated_at, p.slug as provider_slug, p.name as provider_name,
         p.category as provider_category, p.icon_url as provider_icon_url
  from ${from} c join public.providers p on p.id = c.provider_id`)

function present(row: CredentialRow, now: Date): Credential {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    key_hint: row.key_hint,
    provider_id: row.provider_id,
    provider: {
      id: row.provider_id,
      slug: row.provider_slug,
      name: row.provider_name,
      category: row.provider_category,
      icon_url: row.provider_icon_url,
    },
    scopes: row.scopes,
    base_url: row.base_url,
    expires_at: row.expires_at?.toISOString() ?? null,
    status: credentialStatus(row.expires_at, now),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    rotated_at: row.rotated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** Translates the database's refusals into API errors. Messages never carry request values. */
function asApiError(err: unknown): never {
  if (isPgError(err, pgErrors.insufficientPrivilege)) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners and admins manage credentials')
  }
  if (isPgError(err, pgErrors.uniqueViolation)) {
    throw new ServiceError(
      'CONFLICT',
      'A credential with this name already exists for this provider and environment',
    )
  }
  if (isPgError(err, pgErrors.foreignKeyViolation)) {
    throw invalidField('provider_id', 'no such provider (see GET /api/providers)', 'Unknown provider_id')
  }
  throw err
}

/** expires_at as a Date, refused unless in the future; null and undefined pass through. */
function futureExpiry(value: string | null | undefined, now: Date): Date | null | undefined {
  if (value === undefined || value === null) return value
  const at = new Date(value)
  requireFuture('expires_at', at, now)
  return at
}

/** Providers whose API is OpenAI's: only their credentials may carry a base URL. */
const OPENAI_COMPATIBLE = ['openai']

/**
 * A base URL is checked when it is set (an OpenAI-compatible provider, an address the outbound
 * policy admits) and again by the guarded fetch at every call, so a DNS change cannot slip past.
 */
async function checkedBaseUrl(
  ctx: ServiceContext,
  providerSlug: string | undefined,
  url: string | null | undefined,
): Promise<string | null | undefined> {
  if (url === undefined || url === null) return url
  if (!providerSlug || !OPENAI_COMPATIBLE.includes(providerSlug))
    throw invalidField('base_url', 'only an OpenAI-compatible credential (provider openai) takes a base URL')
  try {
    await assertPublicUrl(url, outboundPolicyFrom(ctx.config))
  } catch (err) {
    if (err instanceof OutboundBlockedError || err instanceof OutboundError)
      throw invalidField('base_url', `is refused: ${err.message}`)
    throw err
  }
  return url.replace(/\/+$/, '')
}

/** Updates the tenant's credential `id` and returns it with its provider; NOT_FOUND when none. */
async function updateRow(ctx: ServiceContext, id: string, changes: Record<string, unknown>, now: Date) {
  const { caller } = ctx
  const [row] = await ctx
    .asTenant(
      (tx) => tx<CredentialRow[]>`
      with c as (
        update public.credentials set ${tx(changes)}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning ${tx.unsafe(visibleColumns)}
      )
      ${withProvider(tx, 'c')}`,
    )
    .catch(asApiError)
  if (!row) throw notFound('Credential')
  return present(row, now)
}

export async function createCredential(
  ctx: ServiceContext,
  input: CreateCredentialInput,
): Promise<Credential> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const expiresAt = futureExpiry(input.expires_at, now) ?? null
  const id = crypto.randomUUID()
  // The secret's first and only stop: from here on only its ciphertext and hint exist.
  const baseUrl =
    input.base_url === undefined
      ? null
      : await checkedBaseUrl(ctx, await providerSlug(ctx, input.provider_id), input.base_url)
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, input.credential, credentialPurpose(id))
  const hint = keyHint(input.credential)
  const [row] = await ctx
    .asTenant(
      (tx) => tx<CredentialRow[]>`
      with c as (
        insert into public.credentials (id, tenant_id, provider_id, name, environment, key_hint, secret_ciphertext,
                                        scopes, base_url, expires_at, created_by, created_at, updated_at)
        values (${id}, ${caller.tenantId}, ${input.provider_id}, ${input.name}, ${input.environment}, ${hint}, ${ciphertext},
                ${input.scopes}, ${baseUrl ?? null}, ${expiresAt}, ${caller.userId}, ${now}, ${now})
        returning ${tx.unsafe(visibleColumns)}
      )
      ${withProvider(tx, 'c')}`,
    )
    .catch(asApiError)
  return present(row!, now)
}

export async function listCredentials(
  ctx: ServiceContext,
  query: PageRequest & { provider_id?: string; environment?: Environment },
): Promise<Page<Credential>> {
  const { caller } = ctx
  const { provider_id, environment } = query
  const now = ctx.clock.now()
  return keysetPage(
    query,
    { at: 'created_at', column: 'c.created_at', id: 'c.id' },
    (r: CredentialRow) => present(r, now),
    (keyset) =>
      ctx.asTenant(
        (tx) => tx<CredentialRow[]>`
      ${withProvider(tx, 'public.credentials')}
      where c.tenant_id = ${caller.tenantId}
        ${provider_id ? tx`and c.provider_id = ${provider_id}` : tx``}
        ${environment ? tx`and c.environment = ${environment}` : tx``}
        ${keyset(tx)}`,
      ),
  )
}

export async function getCredential(ctx: ServiceContext, id: string): Promise<Credential> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<CredentialRow[]>`
      ${withProvider(tx, 'public.credentials')} where c.id = ${id} and c.tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Credential')
  return present(row, ctx.clock.now())
}

export async function updateCredential(
  ctx: ServiceContext,
  id: string,
  input: UpdateCredentialInput,
): Promise<Credential> {
  const now = ctx.clock.now()
  const changes: Record<string, unknown> = { updated_at: now }
  if (input.name !== undefined) changes.name = input.name
  if (input.scopes !== undefined) changes.scopes = input.scopes
  if (input.expires_at !== undefined) changes.expires_at = futureExpiry(input.expires_at, now)
  if (input.base_url !== undefined)
    changes.base_url =
      input.base_url &&
      (await checkedBaseUrl(ctx, (await getCredential(ctx, id)).provider.slug, input.base_url))
  return updateRow(ctx, id, changes, now)
}

export async function rotateCredential(
  ctx: ServiceContext,
  id: string,
  input: RotateCredentialInput,
): Promise<Credential> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const expiresAt = futureExpiry(input.expires_at, now)
  // Encrypted for this row before anything else; a wrong-tenant id simply updates nothing.
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, input.credential, credentialPurpose(id))
  return updateRow(
    ctx,
    id,
    {
      secret_ciphertext: ciphertext,
      key_hint: keyHint(input.credential),
      rotated_at: now,
      updated_at: now,
      ...(expiresAt !== undefined && { expires_at: expiresAt }),
    },
    now,
  )
}

async function providerSlug(ctx: ServiceContext, providerId: string): Promise<string | undefined> {
  const [row] = await ctx.readAsTenant(
    (q) => q<{ slug: string }[]>`select slug from public.providers where id = ${providerId}`,
  )
  return row?.slug
}

export async function deleteCredential(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const deleted = await ctx
    .asTenant(
      (tx) => tx`
      delete from public.credentials where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    )
    .catch(asApiError)
  if (deleted.length === 0) throw notFound('Credential')
}
