import type { z } from '@hono/zod-openapi'
import { requireRole } from '@shared/infra/caller.ts'
import { privilegeErrorAs, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import { usingSecretsOf } from '@shared/infra/secret-columns.ts'
import { integrationById, resolveProviders } from './catalog.ts'
import { type McpOAuthServer, revokeMcpToken } from './mcp-auth.ts'
import { discoverMcpTools, type McpAuthType, McpConnectError } from './mcp-discovery.ts'
import { type AuthorizationStarted, challengeOf, startMcpAuthorization } from './mcp-oauth-connect.ts'
import { revokeToken, vaultPurposes } from './oauth.ts'
import { catalogTools, featureOfPermissionName, parseRestrictions, resolveTool } from './permissions.ts'
import type { Connection, connectBody, Permission, Tool } from './schema.ts'
import { insertTools } from './stored-tools.ts'
import { connectionToken } from './tool-calls.ts'
import { recordIntegrationCall } from './usage-log.ts'

/** Connections (OAuth and MCP) as the tenant sees them, their tools and tool permissions. */

/** Tools without a permission row are allowed (see permissions.ts for why). */
export const DEFAULT_TOOL_ALLOWED = true

const invalid = (field: string, message: string) => invalidField(field, message, `Invalid request: ${field}`)

interface ConnectionRow {
  id: string
  integration_id: string
  integration_slug: string
  connection_type: 'oauth' | 'mcp'
  status: 'active' | 'needs_reauth'
  display_name: string | null
  external_account_name: string | null
  scopes: string[]
  token_expires_at: Date | null
  last_refreshed_at: Date | null
  mcp_server_url: string | null
  mcp_auth_type: McpAuthType | null
  mcp_transport: 'streamable_http' | 'sse' | null
  tools_discovered_at: Date | null
  created_at: Date
  updated_at: Date
  mcp_tool_count: number
}

// Never the encrypted secrets: role authenticated cannot even read those columns.
const connectionColumns = `c.id, c.integration_id, c.integration_slug, c.connection_type, c.status, c.display_name,
  c.external_account_name, c.scopes, c.token_expires_at, c.last_refreshed_at, c.mcp_server_url, c.mcp_auth_type,
  c.mcp_transport, c.tools_discovered_at, c.created_at, c.updated_at,
  (select count(*)::int from public.integration_tools t where t.connection_id = c.id) as mcp_tool_count`

function presentConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    integration_id: row.integration_id,
    integration_slug: row.integration_slug,
    connection_type: row.connection_type,
    status: row.status,
    display_name: row.display_name,
    external_account_name: row.external_account_name,
    scopes: row.scopes,
    token_expires_at: row.token_expires_at?.toISOString() ?? null,
    last_refreshed_at: row.last_refreshed_at?.toISOString() ?? null,
    mcp_server_url: row.mcp_server_url,
    mcp_auth_type: row.mcp_auth_type,
    mcp_transport: row.mcp_transport,
    tool_count:
      row.connection_type === 'oauth' ? catalogTools(row.integration_slug).length : row.mcp_tool_count,
    tools_discovered_at: row.tools_discovered_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

const presentTool = (t: {
  name: string
  alias: string
  description: string
  inputSchema: Record<string, unknown>
}): Tool => ({
  name: t.name,
  alias: t.alias,
  description: t.description,
  inputSchema: t.inputSchema,
})

interface PermissionRow {
  id: string
  connection_id: string
  tool_name: string
  allowed: boolean
  restrictions: Record<string, unknown>
  requires_approval: boolean
  created_at: Date
  updated_at: Date
}

const presentPermission = (r: PermissionRow) => ({
  id: r.id,
  connection_id: r.connection_id,
  tool_name: r.tool_name,
  allowed: r.allowed,
  restrictions: r.restrictions,
  requires_approval: r.requires_approval,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/** RLS refuses members' writes as a privilege error; answer 403. */
const asPermissionError = privilegeErrorAs('Only owners and admins manage integrations')

async function toolsOf(tx: Tx, tenantId: string, row: ConnectionRow): Promise<Tool[]> {
  if (row.connection_type === 'oauth') return catalogTools(row.integration_slug).map(presentTool)
  const rows = await tx<
    { name: string; alias: string; description: string; input_schema: Record<string, unknown> }[]
  >`
    select name, alias, description, input_schema from public.integration_tools
    where tenant_id = ${tenantId} and connection_id = ${row.id} order by name`
  return rows.map((r) => presentTool({ ...r, inputSchema: r.input_schema }))
}

const loadConnection = async (tx: Tx, tenantId: string, id: string): Promise<ConnectionRow> => {
  const [row] = await tx<ConnectionRow[]>`
    select ${tx.unsafe(connectionColumns)} from public.integration_connections c where c.id = ${id} and c.tenant_id = ${tenantId}`
  if (!row) throw notFound('Connection')
  return row
}

export type ConnectionWithTools = Connection & { tools: Tool[] }

export async function listConnections(ctx: ServiceContext): Promise<{ data: Connection[] }> {
  const { caller } = ctx
  const rows = await ctx.asTenant(
    (tx) => tx<ConnectionRow[]>`
    select ${tx.unsafe(connectionColumns)} from public.integration_connections c
    where c.tenant_id = ${caller.tenantId} order by c.created_at, c.id limit 500`,
  )
  return { data: rows.map(presentConnection) }
}

/** The tenant's active connections with their tools: what a tool server offers the tenant. */
export async function listActiveConnectionsWithTools(ctx: ServiceContext): Promise<ConnectionWithTools[]> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const rows = await tx<ConnectionRow[]>`
      select ${tx.unsafe(connectionColumns)} from public.integration_connections c
      where c.tenant_id = ${caller.tenantId} and c.status = 'active' order by c.created_at, c.id limit 500`
    const out: ConnectionWithTools[] = []
    for (const row of rows)
      out.push({ ...presentConnection(row), tools: await toolsOf(tx, caller.tenantId, row) })
    return out
  })
}

export async function getConnection(ctx: ServiceContext, id: string): Promise<ConnectionWithTools> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const row = await loadConnection(tx, caller.tenantId, id)
    return { ...presentConnection(row), tools: await toolsOf(tx, caller.tenantId, row) }
  })
}

export async function renameConnection(
  ctx: ServiceContext,
  id: string,
  displayName: string,
): Promise<Connection> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  const row = await ctx
    .asTenant(async (tx) => {
      await loadConnection(tx, caller.tenantId, id)
      await tx`update public.integration_connections set display_name = ${displayName}, updated_at = ${ctx.clock.now()}
             where id = ${id} and tenant_id = ${caller.tenantId}`
      return loadConnection(tx, caller.tenantId, id)
    })
    .catch(asPermissionError)
  return presentConnection(row)
}

export async function deleteConnection(
  ctx: ServiceContext,
  id: string,
): Promise<{ id: string; deleted: true; revoked_at_provider: boolean }> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  // Visible to the caller (RLS) first; only then read the secrets with the service connection.
  const { row, secrets } = await usingSecretsOf(
    ctx,
    ctx.asOwner,
    'Connection',
    (tx) => loadConnection(tx, caller.tenantId, id),
    async (owner, row) => {
      const [secrets] = await owner<
        {
          access_token_encrypted: string | null
          refresh_token_encrypted: string | null
          mcp_oauth: McpOAuthServer | null
          mcp_oauth_client_secret_encrypted: string | null
        }[]
      >`
        select access_token_encrypted, refresh_token_encrypted, mcp_oauth, mcp_oauth_client_secret_encrypted
        from public.integration_connections where id = ${id} and tenant_id = ${caller.tenantId}`
      return { row, secrets }
    },
  )
  const deleted = await ctx
    .asTenant(
      (tx) =>
        tx`delete from public.integration_connections where id = ${id} and tenant_id = ${caller.tenantId}`,
    )
    .catch(asPermissionError)
  if (deleted.count === 0) throw notFound('Connection')
  let revoked = false
  const provider = resolveProviders(ctx.config).get(row.integration_slug)
  const mcpServer = row.connection_type === 'mcp' ? (secrets?.mcp_oauth ?? null) : null
  // Revoking the refresh token ends the whole grant at RFC 7009 servers; else the access token.
  const [sealed, hint] = secrets?.refresh_token_encrypted
    ? [secrets.refresh_token_encrypted, 'refresh_token' as const]
    : [secrets?.access_token_encrypted ?? null, 'access_token' as const]
  const purpose = hint === 'refresh_token' ? vaultPurposes.refreshToken : vaultPurposes.accessToken
  const open = (value: string, p: string) => ctx.vault.decrypt(caller.tenantId, value, p)
  if (sealed && row.connection_type === 'oauth' && provider?.revocationUrl) {
    revoked = await revokeToken(ctx, provider, await open(sealed, purpose), hint)
  } else if (sealed && mcpServer?.revocation_endpoint) {
    const clientSecret = secrets?.mcp_oauth_client_secret_encrypted
      ? await open(secrets.mcp_oauth_client_secret_encrypted, vaultPurposes.mcpClientSecret)
      : null
    revoked = await revokeMcpToken(ctx, mcpServer, clientSecret, await open(sealed, purpose), hint)
  }
  return { id, deleted: true, revoked_at_provider: revoked }
}

export type ConnectInput = z.output<typeof connectBody>

/**
 * Connects an MCP server. With a token or none, its tools are listed at once ('connected'). An
 * OAuth-protected server (asked for with 'oauth', or found when a server connected without a
 * token answers 401 with a Bearer challenge) starts the MCP authorization flow instead
 * ('authorize'): the integrations callback stores the connection when the user comes back.
 */
export async function connectMcp(
  ctx: ServiceContext,
  body: ConnectInput,
): Promise<
  { kind: 'connected'; connection: ConnectionWithTools } | ({ kind: 'authorize' } & AuthorizationStarted)
> {
  const { caller } = ctx
  const entry = integrationById(body.integration_id)
  if (!entry) throw invalid('integration_id', 'unknown integration')
  if (!entry.connection_types.includes('mcp'))
    throw invalid('integration_id', `${entry.slug} does not take MCP connections`)
  requireRole(caller, ['owner', 'admin'])
  const authorize = async (challenge: { resourceMetadataUrl?: URL; scope?: string }) => ({
    kind: 'authorize' as const,
    ...(await startMcpAuthorization(ctx, entry, {
      serverUrl: body.mcp_server_url,
      displayName: body.display_name ?? entry.name,
      challenge,
    })),
  })
  if (body.mcp_auth_type === 'oauth') return authorize((await challengeOf(ctx, body.mcp_server_url)) ?? {})

  const started = performance.now()
  let discovered: Awaited<ReturnType<typeof discoverMcpTools>>
  try {
    discovered = await discoverMcpTools(ctx, {
      slug: entry.slug,
      url: body.mcp_server_url,
      authType: body.mcp_auth_type,
      token: body.mcp_auth_token ?? '',
    })
  } catch (err) {
    if (!(err instanceof McpConnectError)) throw err
    if (err.reason === 'blocked') throw invalid('mcp_server_url', err.message)
    // Asked for without a token, and the server wants an OAuth sign-in: the same form starts it.
    if (err.reason === 'unauthorized' && body.mcp_auth_type === 'none') {
      const challenge = await challengeOf(ctx, body.mcp_server_url)
      if (challenge) return authorize(challenge)
    }
    throw new ServiceError('UNPROCESSABLE', `Cannot connect: ${err.message}`, {
      details: [{ field: 'mcp_server_url', message: err.reason }],
    })
  }
  const elapsed = performance.now() - started
  const tokenEncrypted = body.mcp_auth_token
    ? await ctx.vault.encrypt(caller.tenantId, body.mcp_auth_token, vaultPurposes.mcpToken)
    : null
  const now = ctx.clock.now()
  const result = await ctx
    .asTenant(async (tx) => {
      const [row] = await tx<ConnectionRow[]>`
      insert into public.integration_connections as c
        (tenant_id, integration_id, integration_slug, connection_type, display_name, created_by, mcp_server_url,
         mcp_auth_type, mcp_auth_token_encrypted, mcp_transport, tools_discovered_at, created_at, updated_at)
      values (${caller.tenantId}, ${entry.integration_id}, ${entry.slug}, 'mcp', ${body.display_name ?? entry.name}, ${caller.userId},
              ${body.mcp_server_url}, ${body.mcp_auth_type}, ${tokenEncrypted}, ${discovered.transport}, ${now}, ${now}, ${now})
      returning ${tx.unsafe(connectionColumns)}`
      await insertTools(tx, caller.tenantId, row!.id, discovered.tools)
      await recordIntegrationCall(tx, {
        tenantId: caller.tenantId,
        integrationId: entry.integration_id,
        connectionId: row!.id,
        toolName: 'tools/list',
        action: 'discover',
        triggeredBy: 'manual',
        userId: caller.userId,
        success: true,
        responseTimeMs: elapsed,
        at: now,
      })
      return { ...row!, mcp_tool_count: discovered.tools.length }
    })
    .catch(asPermissionError)
  return {
    kind: 'connected',
    connection: { ...presentConnection(result), tools: discovered.tools.map(presentTool) },
  }
}

export async function rediscoverTools(ctx: ServiceContext, id: string): Promise<ConnectionWithTools> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  const row = await ctx.asTenant((tx) => loadConnection(tx, caller.tenantId, id))
  if (row.connection_type !== 'mcp')
    throw invalid('id', 'OAuth connections take their tools from the catalog')
  const { token } = await connectionToken(ctx, id)
  const started = performance.now()
  const log = (tx: Tx, success: boolean) =>
    recordIntegrationCall(tx, {
      tenantId: caller.tenantId,
      integrationId: row.integration_id,
      connectionId: id,
      toolName: 'tools/list',
      action: 'discover',
      triggeredBy: 'manual',
      userId: caller.userId,
      success,
      responseTimeMs: performance.now() - started,
      at: ctx.clock.now(),
    })
  let discovered: Awaited<ReturnType<typeof discoverMcpTools>>
  try {
    discovered = await discoverMcpTools(ctx, {
      slug: row.integration_slug,
      url: row.mcp_server_url!,
      authType: row.mcp_auth_type!,
      token: token ?? '',
    })
  } catch (err) {
    if (!(err instanceof McpConnectError)) throw err
    await ctx.asTenant((tx) => log(tx, false))
    throw new ServiceError('UNPROCESSABLE', `Cannot discover tools: ${err.message}`, {
      details: [{ field: 'mcp_server_url', message: err.reason }],
    })
  }
  return ctx
    .asTenant(async (tx) => {
      await tx`delete from public.integration_tools where tenant_id = ${caller.tenantId} and connection_id = ${id}`
      await insertTools(tx, caller.tenantId, id, discovered.tools)
      await tx`update public.integration_connections set tools_discovered_at = ${ctx.clock.now()}, mcp_transport = ${discovered.transport},
               updated_at = ${ctx.clock.now()} where id = ${id} and tenant_id = ${caller.tenantId}`
      await log(tx, true)
      const fresh = await loadConnection(tx, caller.tenantId, id)
      return { ...presentConnection(fresh), tools: discovered.tools.map(presentTool) }
    })
    .catch(asPermissionError)
}

export async function setPermission(
  ctx: ServiceContext,
  id: string,
  body: { tool_name: string; allowed: boolean; restrictions?: unknown; requires_approval?: boolean },
): Promise<{ permission: Permission; created: boolean }> {
  const { caller } = ctx
  requireRole(caller, ['owner', 'admin'])
  const now = ctx.clock.now()
  const result = await ctx
    .asTenant(async (tx) => {
      const row = await loadConnection(tx, caller.tenantId, id)
      const tools = await toolsOf(tx, caller.tenantId, row)
      // An MCP connection's resources and prompts are permitted by feature ('<slug>:resources/*').
      const feature =
        row.connection_type === 'mcp'
          ? featureOfPermissionName(row.integration_slug, body.tool_name)
          : undefined
      const tool = feature ? { name: body.tool_name } : resolveTool(tools, body.tool_name)
      if (!tool) throw invalid('tool_name', `the connection has no tool ${body.tool_name}`)
      const restrictions = parseRestrictions(tool.name, body.restrictions)
      if (!restrictions.ok) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          `Invalid request: ${restrictions.issues.map((i) => i.field).join(', ')}`,
          { details: restrictions.issues },
        )
      }
      const [saved] = await tx<(PermissionRow & { inserted: boolean })[]>`
      insert into public.integration_tool_permissions (tenant_id, connection_id, tool_name, allowed, restrictions, requires_approval, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${id}, ${tool.name}, ${body.allowed}, ${tx.json(restrictions.value as never)},
              ${body.requires_approval ?? false}, ${caller.userId}, ${now}, ${now})
      on conflict (connection_id, tool_name) do update set
        allowed = excluded.allowed, restrictions = excluded.restrictions, created_by = excluded.created_by, updated_at = excluded.updated_at,
        requires_approval = coalesce(${body.requires_approval ?? null}::boolean, public.integration_tool_permissions.requires_approval)
      returning id, connection_id, tool_name, allowed, restrictions, requires_approval, created_at, updated_at, (xmax = 0) as inserted`
      return saved!
    })
    .catch(asPermissionError)
  const { inserted, ...permission } = result
  return { permission: presentPermission(permission), created: inserted }
}

export async function listPermissions(
  ctx: ServiceContext,
  id: string,
): Promise<{ default_allowed: boolean; data: Permission[] }> {
  const { caller } = ctx
  const rows = await ctx.asTenant(async (tx) => {
    await loadConnection(tx, caller.tenantId, id)
    return tx<PermissionRow[]>`
      select id, connection_id, tool_name, allowed, restrictions, requires_approval, created_at, updated_at
      from public.integration_tool_permissions
      where tenant_id = ${caller.tenantId} and connection_id = ${id} order by tool_name`
  })
  return { default_allowed: DEFAULT_TOOL_ALLOWED, data: rows.map(presentPermission) }
}
