import type { z } from '@hono/zod-openapi'
import { privilegeErrorAs, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, requireFuture } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { applyAuthChangesNow } from '@shared/infra/hot-path/hot-path.ts'
import { displayPrefix, generateKey, hashKey } from '@shared/infra/keys.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { requireOwnConnections } from '@shared/services/tools/tool-subset.ts'
import {
  type ApiKey,
  type CreatedApiKey,
  type createApiKeyBody,
  environmentsByKind,
  RATE_LIMIT_MAX,
} from './schema.ts'

/** Platform and tool-server keys: create (the secret shown once), list, get, revoke. */

interface ApiKeyRow {
  id: string
  name: string
  family: ApiKey['kind']
  environment: string
  key_prefix: string
  scopes: string[]
  rate_limit_per_minute: number
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
  created_at: Date
  published_only: boolean
  allowed_origins: string[]
  tool_subset: ApiKey['tool_subset']
  tool_listing: ApiKey['tool_listing']
}

const columns =
  'id, name, family, environment, key_prefix, scopes, rate_limit_per_minute, expires_at, last_used_at, revoked_at, created_at, published_only, allowed_origins, tool_subset, tool_listing'

function present(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    kind: row.family,
    environment: row.environment,
    key_prefix: row.key_prefix,
    scopes: row.scopes,
    rate_limit_per_minute: row.rate_limit_per_minute,
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    published_only: row.published_only,
    allowed_origins: row.allowed_origins,
    tool_subset: row.tool_subset ?? null,
    tool_listing: row.tool_listing,
  }
}

/** RLS refuses members' writes as a privilege error; answer 403. */
const asPermissionError = privilegeErrorAs('Only owners and admins manage API keys')

export type CreateApiKeyInput = z.output<typeof createApiKeyBody>

export async function createApiKey(ctx: ServiceContext, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const prefixes: Record<string, string> = environmentsByKind[input.kind]
  const prefix = prefixes[input.environment]
  if (!prefix) {
    const allowed = Object.keys(prefixes).join(', ')
    throw invalidField(
      'environment',
      `one of ${allowed}`,
      `A ${input.kind} key's environment is one of: ${allowed}`,
    )
  }
  const max = RATE_LIMIT_MAX[input.kind]
  if (input.rate_limit_per_minute > max) {
    throw invalidField(
      'rate_limit_per_minute',
      `at most ${max}`,
      `rate_limit_per_minute is at most ${max} for ${input.kind} keys`,
    )
  }
  if (input.published_only) {
    if (input.kind !== 'platform')
      throw invalidField(
        'published_only',
        'only platform keys are published-only',
        'A published-only key is a platform key',
      )
    if (input.scopes.length !== 1 || input.scopes[0] !== 'content:read')
      throw invalidField(
        'scopes',
        'must be ["content:read"] for a published-only key',
        'A published-only key has the scope content:read and nothing else',
      )
  } else if (input.allowed_origins.length > 0) {
    throw invalidField(
      'allowed_origins',
      'only for published-only keys',
      'allowed_origins is for published-only keys (a key that can read drafts must not be in a browser)',
    )
  }
  const toolSubset = input.tool_subset ?? null
  if (toolSubset && input.kind !== 'tool_server')
    throw invalidField('tool_subset', 'tool-server keys only', 'Only a tool-server key takes a tool_subset')
  if (input.tool_listing !== 'all' && input.kind !== 'tool_server')
    throw invalidField('tool_listing', 'tool-server keys only', 'Only a tool-server key takes a tool_listing')
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null
  requireFuture('expires_at', expiresAt, now)
  const key = generateKey(prefix as Parameters<typeof generateKey>[0])
  const keyHash = hashKey(key)
  const row = await ctx
    .asTenant(async (tx) => {
      if (toolSubset) await requireOwnConnections(tx, caller.tenantId, toolSubset.connections)
      const [created] = await tx<ApiKeyRow[]>`
      insert into public.api_keys (tenant_id, created_by, name, family, environment, key_prefix, key_hash, scopes, rate_limit_per_minute, expires_at, created_at, published_only, allowed_origins, tool_subset, tool_listing)
      values (${caller.tenantId}, ${caller.userId}, ${input.name}, ${input.kind}, ${input.environment}, ${displayPrefix(key)},
              ${keyHash}, ${input.scopes}, ${input.rate_limit_per_minute}, ${expiresAt}, ${now}, ${input.published_only}, ${input.allowed_origins},
              ${toolSubset ? tx.json(toolSubset) : null}, ${input.tool_listing})
      returning ${tx.unsafe(columns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'api_key.created',
        at: now,
        data: eventData(created!),
      })
      return created!
    })
    .catch(asPermissionError)
  ctx.onOutboxCommitted?.()
  return { ...present(row), key }
}

export async function listApiKeys(ctx: ServiceContext, page: PageRequest): Promise<Page<ApiKey>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at' }, present, (keyset) =>
    ctx.asTenant(
      (tx) => tx<ApiKeyRow[]>`
      select ${tx.unsafe(columns)} from public.api_keys
      where tenant_id = ${caller.tenantId}
        ${keyset(tx)}`,
    ),
  )
}

export async function getApiKey(ctx: ServiceContext, id: string): Promise<ApiKey> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<ApiKeyRow[]>`
      select ${tx.unsafe(columns)} from public.api_keys where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('API key')
  return present(row)
}

/** Takes effect on the next request, on every instance; revoking twice is not an error. */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<ApiKey> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx: Tx) => {
      const [revoked] = await tx<ApiKeyRow[]>`
      update public.api_keys set revoked_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} and revoked_at is null
      returning ${tx.unsafe(columns)}`
      if (revoked) {
        await recordEvent(tx, {
          tenantId: caller.tenantId,
          type: 'api_key.revoked',
          at: now,
          data: eventData(revoked),
        })
        return revoked
      }
      // Already revoked (idempotent) or not this tenant's (404).
      const [existing] = await tx<ApiKeyRow[]>`
      select ${tx.unsafe(columns)} from public.api_keys where id = ${id} and tenant_id = ${caller.tenantId}`
      return existing ?? null
    })
    .catch(asPermissionError)
  if (!row) throw notFound('API key')
  await applyAuthChangesNow(ctx)
  ctx.onOutboxCommitted?.()
  return present(row)
}

/** Event data for api_key.created / api_key.revoked: identifies the key, never its secret. */
function eventData(row: ApiKeyRow) {
  return {
    api_key_id: row.id,
    name: row.name,
    kind: row.family,
    environment: row.environment,
    key_prefix: row.key_prefix,
    scopes: row.scopes,
    ...(row.published_only && { published_only: true }),
    ...(row.revoked_at && { revoked_at: row.revoked_at.toISOString() }),
  }
}
