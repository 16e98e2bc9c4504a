import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { usingSecretsOf } from '@shared/infra/secret-columns.ts'
import { findIntegration } from './catalog.ts'
import type { McpAuthType } from './mcp-discovery.ts'
import { vaultPurposes } from './oauth.ts'
import { type Decision, decideToolCall as decide } from './permissions.ts'
import { refreshConnectionToken } from './token-refresh.ts'
import {
  type IntegrationCall,
  type IntegrationStats,
  integrationStats,
  PLATFORM_INTEGRATION_ID,
  PLATFORM_INTEGRATION_SLUG,
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

/** An OAuth MCP token this close to expiry is refreshed before a call uses it. */
const EXPIRY_MARGIN_MS = 60_000

/**
 * The decrypted credential to call a connection's provider with: the OAuth access token, the MCP
 * server token, an OAuth MCP connection's access token (refreshed first when it has expired), or
 * '' for an MCP server that takes none. The connection must be visible to the caller (RLS) and
 * active; the secret columns are then read with the service connection (role authenticated
 * cannot read them).
 */
export async function connectionToken(
  ctx: ServiceContext,
  connectionId: string,
  refreshIfExpired = true,
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
            mcp_auth_type: McpAuthType | null
            access_token_encrypted: string | null
            mcp_auth_token_encrypted: string | null
            token_expires_at: Date | null
          }[]
        >`
        select connection_type, mcp_auth_type, access_token_encrypted, mcp_auth_token_encrypted, token_expires_at
        from public.integration_connections where id = ${connectionId} and tenant_id = ${caller.tenantId}`
      )[0],
  )
  if (!row) throw notFound('Connection')
  const expires_at = row.token_expires_at?.toISOString() ?? null
  if (row.connection_type === 'mcp' && row.mcp_auth_type === 'none')
    return { token: '', kind: 'mcp', expires_at }
  const accessToken = row.connection_type === 'oauth' || row.mcp_auth_type === 'oauth'
  if (
    accessToken &&
    row.connection_type === 'mcp' &&
    refreshIfExpired &&
    row.token_expires_at &&
    row.token_expires_at.getTime() < ctx.clock.now().getTime() + EXPIRY_MARGIN_MS
  ) {
    await refreshConnectionToken(ctx, connectionId)
    return connectionToken(ctx, connectionId, false)
  }
  const sealed = accessToken ? row.access_token_encrypted : row.mcp_auth_token_encrypted
  if (!sealed) throw notFound('Connection')
  const purpose = accessToken ? vaultPurposes.accessToken : vaultPurposes.mcpToken
  return {
    token: await ctx.vault.decrypt(caller.tenantId, sealed, purpose),
    kind: row.connection_type,
    expires_at,
  }
}

/** Usage statistics of one integration (by id or slug) for the caller's tenant. */
export async function getIntegrationStats(
  ctx: ServiceContext,
  idOrSlug: string,
  period: StatsPeriod,
): Promise<IntegrationStats> {
  const { caller } = ctx
  const platform = idOrSlug === PLATFORM_INTEGRATION_SLUG || idOrSlug === PLATFORM_INTEGRATION_ID
  const integrationId = platform ? PLATFORM_INTEGRATION_ID : findIntegration(idOrSlug)?.integration_id
  if (!integrationId) throw notFound('Integration')
  // Row-level security scopes the aggregate to the caller's tenant as well as the WHERE clause.
  return ctx.asTenant((tx) =>
    integrationStats(tx, {
      tenantId: caller.tenantId,
      integrationId,
      period,
      now: ctx.clock.now(),
    }),
  )
}
