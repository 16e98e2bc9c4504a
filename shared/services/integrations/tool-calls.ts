import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { usingSecretsOf } from '@shared/infra/secret-columns.ts'
import { findIntegration } from './catalog.ts'
import { vaultPurposes } from './oauth.ts'
import { type Decision, decideToolCall as decide } from './permissions.ts'
import {
  type IntegrationCall,
  type IntegrationStats,
  integrationStats,
  recordIntegrationCall,
  type StatsPeriod,
} from './usage-log.ts'

/**
 * What a tool server needs per call, as the tenant caller: decide, use the connection's token,
 * record the call. (Listing the tenant's tools: listActiveConnectionsWithTools in connections.ts.)
 */

/** Decides a tool call under the caller's row-level security. */
export function decideToolCall(
  ctx: ServiceContext,
  input: { toolName: string; arguments?: Record<string, unknown>; connectionId?: string },
): Promise<Decision> {
  return ctx.asTenant((tx) => decide(tx, { ...input, tenantId: ctx.caller.tenantId }))
}

/** Records one call in the usage log, as the caller's tenant. */
export async function recordToolCall(
  ctx: ServiceContext,
  call: Omit<IntegrationCall, 'tenantId'>,
): Promise<void> {
  await ctx.asTenant((tx) =>
    recordIntegrationCall(tx, { at: ctx.clock.now(), ...call, tenantId: ctx.caller.tenantId }),
  )
}

/**
 * The decrypted credential to call a connection's provider with: the OAuth access token or the MCP
 * server token. The connection must be visible to the caller (RLS) and active; the secret columns
 * are then read with the service connection (role authenticated cannot read them).
 */
export async function connectionToken(
  ctx: ServiceContext,
  connectionId: string,
): Promise<{ token: string; kind: 'oauth' | 'mcp'; expires_at: string | null }> {
  const { caller } = ctx
  const row = await usingSecretsOf(
    ctx,
    ctx.asOwner,
    'Connection',
    async (tx) =>
      (
        await tx<{ id: string }[]>`
        select id from public.integration_connections where id = ${connectionId} and tenant_id = ${caller.tenantId} and status = 'active'`
      )[0],
    async (owner) =>
      (
        await owner<
          {
            connection_type: 'oauth' | 'mcp'
            access_token_encrypted: string | null
            mcp_auth_token_encrypted: string | null
            token_expires_at: Date | null
          }[]
        >`
        select connection_type, access_token_encrypted, mcp_auth_token_encrypted, token_expires_at
        from public.integration_connections where id = ${connectionId} and tenant_id = ${caller.tenantId}`
      )[0],
  )
  const sealed = row?.connection_type === 'oauth' ? row.access_token_encrypted : row?.mcp_auth_token_encrypted
  if (!row || !sealed) throw notFound('Connection')
  const purpose = row.connection_type === 'oauth' ? vaultPurposes.accessToken : vaultPurposes.mcpToken
  return {
    token: await ctx.vault.decrypt(caller.tenantId, sealed, purpose),
    kind: row.connection_type,
    expires_at: row.token_expires_at?.toISOString() ?? null,
  }
}

/** Usage statistics of one integration (by id or slug) for the caller's tenant. */
export async function getIntegrationStats(
  ctx: ServiceContext,
  idOrSlug: string,
  period: StatsPeriod,
): Promise<IntegrationStats> {
  const { caller } = ctx
  const entry = findIntegration(idOrSlug)
  if (!entry) throw notFound('Integration')
  // Row-level security scopes the aggregate to the caller's tenant as well as the WHERE clause.
  return ctx.asTenant((tx) =>
    integrationStats(tx, {
      tenantId: caller.tenantId,
      integrationId: entry.integration_id,
      period,
      now: ctx.clock.now(),
    }),
  )
}
