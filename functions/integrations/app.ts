import { createRoute } from '@hono/zod-openapi'
import { requireRole } from '../../shared/infra/auth.ts'
import { privilegeErrorAs, type Tx, withTenant } from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound, ServiceError } from '../../shared/infra/errors.ts'
import { authenticate, limitAnonymous, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses } from '../../shared/infra/http/openapi.ts'
import {
  type CatalogEntry,
  catalog,
  categories,
  findIntegration,
  integrationById,
  integrationBySlug,
  resolveProviders,
  toolAlias,
} from '../../shared/services/integrations/catalog.ts'
import {
  type DiscoveredTool,
  discoverMcpTools,
  McpConnectError,
} from '../../shared/services/integrations/mcp-discovery.ts'
import {
  beginAuthorization,
  consumeState,
  exchangeCode,
  lookupAccount,
  revokeToken,
  TokenEndpointError,
  vaultPurposes,
} from '../../shared/services/integrations/oauth.ts'
import {
  catalogTools,
  parseRestrictions,
  resolveTool,
} from '../../shared/services/integrations/permissions.ts'
import {
  authorizeResponse,
  type Connection,
  callbackQuery,
  catalogSchema,
  connectBody,
  connectionDetailSchema,
  connectionListSchema,
  connectionSchema,
  deletedSchema,
  idParam,
  integrationParam,
  permissionBody,
  permissionListSchema,
  permissionSchema,
  refreshJobResult,
  renameBody,
  slugParam,
  statsQuery,
  statsSchema,
  type Tool,
} from '../../shared/services/integrations/schema.ts'
import { refreshExpiringTokens } from '../../shared/services/integrations/token-refresh.ts'
import { integrationStats, recordIntegrationCall } from '../../shared/services/integrations/usage-log.ts'

export const functionName = 'integrations'

/** Tools without a permission row are allowed (see permissions.ts for why). */
export const DEFAULT_TOOL_ALLOWED = true

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
  mcp_auth_type: 'bearer' | 'api_key' | null
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
  created_at: Date
  updated_at: Date
}

const presentPermission = (r: PermissionRow) => ({
  id: r.id,
  connection_id: r.connection_id,
  tool_name: r.tool_name,
  allowed: r.allowed,
  restrictions: r.restrictions,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/** RLS refuses members' writes as a privilege error; answer 403. */
const asPermissionError = privilegeErrorAs('Only owners and admins manage integrations')

const invalid = (field: string, message: string) =>
  new ServiceError('VALIDATION_ERROR', `Invalid request: ${field}`, { details: [{ field, message }] })

async function toolsOf(tx: Tx, tenantId: string, row: ConnectionRow): Promise<Tool[]> {
  if (row.connection_type === 'oauth') return catalogTools(row.integration_slug).map(presentTool)
  const rows = await tx<
    { name: string; alias: string; description: string; input_schema: Record<string, unknown> }[]
  >`
    select name, alias, description, input_schema from public.integration_tools
    where tenant_id = ${tenantId} and connection_id = ${row.id} order by name`
  return rows.map((r) => presentTool({ ...r, inputSchema: r.input_schema }))
}

async function insertTools(
  tx: Tx,
  tenantId: string,
  connectionId: string,
  tools: DiscoveredTool[],
): Promise<void> {
  if (tools.length === 0) return
  await tx`
    insert into public.integration_tools ${tx(
      tools.map((t) => ({
        tenant_id: tenantId,
        connection_id: connectionId,
        name: t.name,
        alias: t.alias,
        description: t.description,
        input_schema: tx.json(t.inputSchema as never),
      })),
    )}`
}

const userSecurity = [{ bearer: [] }]

// ---- routes ---------------------------------------------------------------------------------

const listCatalog = createRoute({
  method: 'get',
  path: '/',
  summary: 'The integrations catalog: OAuth providers and MCP integration types, by category',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  responses: {
    200: { description: 'The catalog', content: { 'application/json': { schema: catalogSchema } } },
    ...errorResponses(401, 429),
  },
})

const authorize = createRoute({
  method: 'get',
  path: '/{slug}/authorize',
  summary:
    "Start the OAuth flow: redirects to the provider's consent screen (JSON with Accept: application/json)",
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: slugParam },
  responses: {
    200: {
      description: 'The consent-screen address',
      content: { 'application/json': { schema: authorizeResponse } },
    },
    302: { description: "Redirect to the provider's consent screen" },
    ...errorResponses(400, 401, 403, 404, 422, 429),
  },
})

const callback = createRoute({
  method: 'get',
  path: '/callback',
  summary: 'OAuth redirect target: exchanges the code, stores the connection, redirects to the dashboard',
  middleware: [limitAnonymous()] as const,
  request: { query: callbackQuery },
  responses: {
    302: { description: 'Redirect to DASHBOARD_URL with status=connected or status=error&error=<code>' },
    ...errorResponses(400, 429),
  },
})

const connect = createRoute({
  method: 'post',
  path: '/connect',
  summary: 'Connect an MCP server: discovers its tools and stores the connection (token encrypted)',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { body: { content: { 'application/json': { schema: connectBody } }, required: true } },
  responses: {
    201: {
      description: 'The connection with its tools',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 403, 413, 422, 429),
  },
})

const stats = createRoute({
  method: 'get',
  path: '/{id}/stats',
  summary: "Usage statistics of one integration for the caller's tenant",
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: integrationParam, query: statsQuery },
  responses: {
    200: { description: 'Statistics', content: { 'application/json': { schema: statsSchema } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

const listConnections = createRoute({
  method: 'get',
  path: '/connections',
  summary: "The tenant's connections (never a token)",
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  responses: {
    200: {
      description: 'Connections, oldest first',
      content: { 'application/json': { schema: connectionListSchema } },
    },
    ...errorResponses(401, 429),
  },
})

const getConnection = createRoute({
  method: 'get',
  path: '/connections/{id}',
  summary: 'One connection with its tools',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: 'The connection',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 404, 429),
  },
})

const renameConnection = createRoute({
  method: 'patch',
  path: '/connections/{id}',
  summary: 'Rename a connection',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: renameBody } }, required: true },
  },
  responses: {
    200: { description: 'The connection', content: { 'application/json': { schema: connectionSchema } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

const deleteConnection = createRoute({
  method: 'delete',
  path: '/connections/{id}',
  summary: 'Delete a connection (revoking its token at the provider where it offers revocation)',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: 'Deleted',
      content: { 'application/json': { schema: deletedSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

const rediscover = createRoute({
  method: 'post',
  path: '/connections/{id}/discover',
  summary: "Discover an MCP connection's tools again",
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: idParam },
  responses: {
    200: {
      description: 'The connection with its tools',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 422, 429),
  },
})

const setPermission = createRoute({
  method: 'post',
  path: '/connections/{id}/permissions',
  summary: 'Allow or disable a tool on a connection, with optional restrictions',
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: permissionBody } }, required: true },
  },
  responses: {
    200: { description: 'Updated', content: { 'application/json': { schema: permissionSchema } } },
    201: { description: 'Created', content: { 'application/json': { schema: permissionSchema } } },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

const listPermissions = createRoute({
  method: 'get',
  path: '/connections/{id}/permissions',
  summary: "A connection's tool permissions",
  security: userSecurity,
  middleware: [authenticate({ allow: ['user'] })] as const,
  request: { params: idParam },
  responses: {
    200: { description: 'Permissions', content: { 'application/json': { schema: permissionListSchema } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

const refreshJob = createRoute({
  method: 'post',
  path: '/jobs/refresh-tokens',
  summary: 'Job: refresh OAuth tokens that expire within 1 hour (service role only; hourly)',
  security: [{ serviceRole: [] }],
  middleware: [authenticate({ allow: ['service'] })] as const,
  responses: {
    200: { description: 'Counts', content: { 'application/json': { schema: refreshJobResult } } },
    ...errorResponses(401),
  },
})

// ---- app ------------------------------------------------------------------------------------

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Integrations hub: catalog, OAuth and MCP connections, tool permissions, usage',
  )
  const providers = resolveProviders(deps.config)

  const publicEntry = (e: CatalogEntry) => ({
    integration_id: e.integration_id,
    slug: e.slug,
    name: e.name,
    kind: e.kind,
    category: e.category,
    connection_types: e.connection_types,
    capabilities: e.capabilities,
    oauth_scopes: e.oauth_scopes,
    mcp_type: e.mcp_type ?? null,
    oauth_configured: Boolean(providers.get(e.slug)?.clientId && providers.get(e.slug)?.clientSecret),
    tools: e.tools.map((t) => presentTool({ ...t, alias: toolAlias(t.name) })),
  })
  const catalogBody = {
    categories: categories.map((slug) => ({
      slug,
      integrations: catalog.filter((e) => e.category === slug).length,
    })),
    data: catalog.map(publicEntry),
  }

  app.openapi(listCatalog, (c) => c.json(catalogBody, 200))

  app.openapi(authorize, async (c) => {
    const { slug } = c.req.valid('param')
    const caller = tenantCaller(c)
    const entry = integrationBySlug(slug)
    const provider = providers.get(slug)
    if (!entry || !provider) throw notFound('OAuth integration')
    requireRole(c.var.caller, ['owner', 'admin'])
    if (!provider.clientId || !provider.clientSecret) {
      throw new ServiceError(
        'UNPROCESSABLE',
        `${entry.name} is not configured on this deployment (${provider.clientIdEnv})`,
      )
    }
    const { url, expiresAt } = await beginAuthorization(
      deps,
      { ...provider, clientId: provider.clientId },
      caller,
    )
    if ((c.req.header('accept') ?? '').includes('application/json')) {
      return c.json({ authorization_url: url, expires_at: expiresAt.toISOString() }, 200)
    }
    c.header('Cache-Control', 'no-store')
    return c.redirect(url, 302)
  })

  app.openapi(callback, async (c) => {
    const query = c.req.valid('query')
    const now = deps.clock.now()
    const back = (params: Record<string, string>) => {
      const url = new URL(deps.config.DASHBOARD_URL)
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
      c.header('Cache-Control', 'no-store')
      return c.redirect(url.toString(), 302)
    }
    const fail = (integration: string | null, error: string, description: string) =>
      back({ status: 'error', ...(integration && { integration }), error, error_description: description })

    // The state is consumed first, whatever the outcome: a denied or failed attempt cannot be replayed.
    const state = await consumeState(deps.sql, query.state, now)
    if (!state)
      return fail(null, 'invalid_state', 'The authorization request is unknown, expired or was already used.')
    const slug = state.integration_slug
    const provider = providers.get(slug)
    if (!provider?.clientId)
      return fail(slug, 'integration_unavailable', 'The integration is not configured.')
    if (query.error) {
      const code = /^[a-z_]{1,64}$/.test(query.error) ? query.error : 'authorization_failed'
      return fail(
        slug,
        code,
        code === 'access_denied'
          ? 'Consent was denied at the provider.'
          : 'The provider refused the authorization.',
      )
    }
    if (!query.code) return fail(slug, 'invalid_request', 'The provider sent no authorization code.')

    let verifier: string | null = null
    if (state.code_verifier_encrypted) {
      verifier = await deps.vault.decrypt(
        state.tenant_id,
        state.code_verifier_encrypted,
        vaultPurposes.pkceVerifier,
      )
    }
    let tokens: Awaited<ReturnType<typeof exchangeCode>>
    try {
      tokens = await exchangeCode(deps, provider, query.code, verifier)
    } catch (err) {
      if (!(err instanceof TokenEndpointError)) throw err
      deps.logger.warn('oauth code exchange failed', {
        integration: slug,
        tenant_id: state.tenant_id,
        reason: err.message,
      })
      return fail(slug, 'token_exchange_failed', 'The provider did not exchange the authorization code.')
    }
    const account = await lookupAccount(deps, provider, tokens)
    const granted = tokens.scopes ?? provider.scopes
    const access = await deps.vault.encrypt(state.tenant_id, tokens.accessToken, vaultPurposes.accessToken)
    const refresh = tokens.refreshToken
      ? await deps.vault.encrypt(state.tenant_id, tokens.refreshToken, vaultPurposes.refreshToken)
      : null

    // One statement: stored only while the user still owns or administers the tenant; the same
    // external account updates its connection (and reactivates it) instead of adding one.
    const [row] = await deps.sql<{ id: string }[]>`
      insert into public.integration_connections
        (tenant_id, integration_id, integration_slug, connection_type, status, created_by, external_account_id,
         external_account_name, scopes, access_token_encrypted, refresh_token_encrypted, token_expires_at, created_at, updated_at)
      select ${state.tenant_id}, ${provider.integration_id}, ${slug}, 'oauth', 'active', ${state.user_id}, ${account.id},
             ${account.name}, ${granted}, ${access}, ${refresh}, ${tokens.expiresAt}, ${now}, ${now}
      where exists (select 1 from public.tenant_members
                    where tenant_id = ${state.tenant_id} and user_id = ${state.user_id} and role in ('owner', 'admin'))
      on conflict (tenant_id, integration_id, external_account_id) do update set
        status = 'active',
        external_account_name = excluded.external_account_name,
        scopes = excluded.scopes,
        access_token_encrypted = excluded.access_token_encrypted,
        refresh_token_encrypted = coalesce(excluded.refresh_token_encrypted, public.integration_connections.refresh_token_encrypted),
        token_expires_at = excluded.token_expires_at,
        token_version = public.integration_connections.token_version + 1,
        refresh_failures = 0, refresh_next_attempt_at = null, last_refresh_error = null,
        refresh_locked_until = null, refresh_lease = null,
        updated_at = excluded.updated_at
      returning id`
    if (!row)
      return fail(slug, 'not_permitted', 'Only owners and admins of the tenant can connect integrations.')
    return back({ status: 'connected', integration: slug, connection_id: row.id })
  })

  app.openapi(connect, async (c) => {
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    const entry = integrationById(body.integration_id)
    if (!entry) throw invalid('integration_id', 'unknown integration')
    if (!entry.connection_types.includes('mcp'))
      throw invalid('integration_id', `${entry.slug} does not take MCP connections`)
    requireRole(c.var.caller, ['owner', 'admin'])

    const started = performance.now()
    let discovered: Awaited<ReturnType<typeof discoverMcpTools>>
    try {
      discovered = await discoverMcpTools(deps, {
        slug: entry.slug,
        url: body.mcp_server_url,
        authType: body.mcp_auth_type,
        token: body.mcp_auth_token,
      })
    } catch (err) {
      if (!(err instanceof McpConnectError)) throw err
      if (err.reason === 'blocked') throw invalid('mcp_server_url', err.message)
      throw new ServiceError('UNPROCESSABLE', `Cannot connect: ${err.message}`, {
        details: [{ field: 'mcp_server_url', message: err.reason }],
      })
    }
    const elapsed = performance.now() - started
    const tokenEncrypted = await deps.vault.encrypt(
      caller.tenantId,
      body.mcp_auth_token,
      vaultPurposes.mcpToken,
    )
    const now = deps.clock.now()
    const result = await withTenant(deps.sql, caller.claims, async (tx) => {
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
    }).catch(asPermissionError)
    return c.json({ ...presentConnection(result), tools: discovered.tools.map(presentTool) }, 201)
  })

  app.openapi(stats, async (c) => {
    const { id } = c.req.valid('param')
    const { period } = c.req.valid('query')
    const caller = tenantCaller(c)
    const entry = findIntegration(id)
    if (!entry) throw notFound('Integration')
    // Row-level security scopes the aggregate to the caller's tenant as well as the WHERE clause.
    const body = await withTenant(deps.sql, caller.claims, (tx) =>
      integrationStats(tx, {
        tenantId: caller.tenantId,
        integrationId: entry.integration_id,
        period,
        now: deps.clock.now(),
      }),
    )
    return c.json(body, 200)
  })

  const loadConnection = async (tx: Tx, tenantId: string, id: string): Promise<ConnectionRow> => {
    const [row] = await tx<ConnectionRow[]>`
      select ${tx.unsafe(connectionColumns)} from public.integration_connections c where c.id = ${id} and c.tenant_id = ${tenantId}`
    if (!row) throw notFound('Connection')
    return row
  }

  app.openapi(listConnections, async (c) => {
    const caller = tenantCaller(c)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<ConnectionRow[]>`
      select ${tx.unsafe(connectionColumns)} from public.integration_connections c
      where c.tenant_id = ${caller.tenantId} order by c.created_at, c.id limit 500`,
    )
    return c.json({ data: rows.map(presentConnection) }, 200)
  })

  app.openapi(getConnection, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const body = await withTenant(deps.sql, caller.claims, async (tx) => {
      const row = await loadConnection(tx, caller.tenantId, id)
      return { ...presentConnection(row), tools: await toolsOf(tx, caller.tenantId, row) }
    })
    return c.json(body, 200)
  })

  app.openapi(renameConnection, async (c) => {
    const { id } = c.req.valid('param')
    const { display_name } = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      await loadConnection(tx, caller.tenantId, id)
      await tx`update public.integration_connections set display_name = ${display_name}, updated_at = ${deps.clock.now()}
               where id = ${id} and tenant_id = ${caller.tenantId}`
      return loadConnection(tx, caller.tenantId, id)
    }).catch(asPermissionError)
    return c.json(presentConnection(row), 200)
  })

  app.openapi(deleteConnection, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    // Visible to the caller (RLS) first; only then read the secrets with the service connection.
    const row = await withTenant(deps.sql, caller.claims, (tx) => loadConnection(tx, caller.tenantId, id))
    const [secrets] = await deps.sql<
      { access_token_encrypted: string | null; refresh_token_encrypted: string | null }[]
    >`
      select access_token_encrypted, refresh_token_encrypted from public.integration_connections
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const deleted = await withTenant(
      deps.sql,
      caller.claims,
      (tx) =>
        tx`delete from public.integration_connections where id = ${id} and tenant_id = ${caller.tenantId}`,
    ).catch(asPermissionError)
    if (deleted.count === 0) throw notFound('Connection')
    let revoked = false
    const provider = providers.get(row.integration_slug)
    if (row.connection_type === 'oauth' && provider?.revocationUrl && secrets) {
      // Revoking the refresh token ends the whole grant at RFC 7009 providers; else the access token.
      const [token, hint] = secrets.refresh_token_encrypted
        ? [secrets.refresh_token_encrypted, 'refresh_token' as const]
        : [secrets.access_token_encrypted, 'access_token' as const]
      if (token) {
        const purpose = hint === 'refresh_token' ? vaultPurposes.refreshToken : vaultPurposes.accessToken
        revoked = await revokeToken(
          deps,
          provider,
          await deps.vault.decrypt(caller.tenantId, token, purpose),
          hint,
        )
      }
    }
    return c.json({ id, deleted: true, revoked_at_provider: revoked }, 200)
  })

  app.openapi(rediscover, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const row = await withTenant(deps.sql, caller.claims, (tx) => loadConnection(tx, caller.tenantId, id))
    if (row.connection_type !== 'mcp')
      throw invalid('id', 'OAuth connections take their tools from the catalog')
    const [secret] = await deps.sql<{ mcp_auth_token_encrypted: string }[]>`
      select mcp_auth_token_encrypted from public.integration_connections where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!secret) throw notFound('Connection')
    const token = await deps.vault.decrypt(
      caller.tenantId,
      secret.mcp_auth_token_encrypted,
      vaultPurposes.mcpToken,
    )
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
        at: deps.clock.now(),
      })
    let discovered: Awaited<ReturnType<typeof discoverMcpTools>>
    try {
      discovered = await discoverMcpTools(deps, {
        slug: row.integration_slug,
        url: row.mcp_server_url!,
        authType: row.mcp_auth_type!,
        token,
      })
    } catch (err) {
      if (!(err instanceof McpConnectError)) throw err
      await withTenant(deps.sql, caller.claims, (tx) => log(tx, false))
      throw new ServiceError('UNPROCESSABLE', `Cannot discover tools: ${err.message}`, {
        details: [{ field: 'mcp_server_url', message: err.reason }],
      })
    }
    const body = await withTenant(deps.sql, caller.claims, async (tx) => {
      await tx`delete from public.integration_tools where tenant_id = ${caller.tenantId} and connection_id = ${id}`
      await insertTools(tx, caller.tenantId, id, discovered.tools)
      await tx`update public.integration_connections set tools_discovered_at = ${deps.clock.now()}, mcp_transport = ${discovered.transport},
                 updated_at = ${deps.clock.now()} where id = ${id} and tenant_id = ${caller.tenantId}`
      await log(tx, true)
      const fresh = await loadConnection(tx, caller.tenantId, id)
      return { ...presentConnection(fresh), tools: discovered.tools.map(presentTool) }
    }).catch(asPermissionError)
    return c.json(body, 200)
  })

  app.openapi(setPermission, async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const result = await withTenant(deps.sql, caller.claims, async (tx) => {
      const row = await loadConnection(tx, caller.tenantId, id)
      const tools = await toolsOf(tx, caller.tenantId, row)
      const tool = resolveTool(tools, body.tool_name)
      if (!tool) throw invalid('tool_name', `the connection has no tool ${body.tool_name}`)
      const restrictions = parseRestrictions(tool.name, body.restrictions)
      if (!restrictions.ok) {
        throw new ServiceError(
          'VALIDATION_ERROR',
          `Invalid request: ${restrictions.issues.map((i) => i.field).join(', ')}`,
          {
            details: restrictions.issues,
          },
        )
      }
      const [saved] = await tx<(PermissionRow & { inserted: boolean })[]>`
        insert into public.integration_tool_permissions (tenant_id, connection_id, tool_name, allowed, restrictions, created_by, created_at, updated_at)
        values (${caller.tenantId}, ${id}, ${tool.name}, ${body.allowed}, ${tx.json(restrictions.value as never)}, ${caller.userId}, ${now}, ${now})
        on conflict (connection_id, tool_name) do update set
          allowed = excluded.allowed, restrictions = excluded.restrictions, created_by = excluded.created_by, updated_at = excluded.updated_at
        returning id, connection_id, tool_name, allowed, restrictions, created_at, updated_at, (xmax = 0) as inserted`
      return saved!
    }).catch(asPermissionError)
    const { inserted, ...permission } = result
    return c.json(presentPermission(permission), inserted ? 201 : 200)
  })

  app.openapi(listPermissions, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const rows = await withTenant(deps.sql, caller.claims, async (tx) => {
      await loadConnection(tx, caller.tenantId, id)
      return tx<PermissionRow[]>`
        select id, connection_id, tool_name, allowed, restrictions, created_at, updated_at
        from public.integration_tool_permissions
        where tenant_id = ${caller.tenantId} and connection_id = ${id} order by tool_name`
    })
    return c.json({ default_allowed: DEFAULT_TOOL_ALLOWED, data: rows.map(presentPermission) }, 200)
  })

  app.openapi(refreshJob, async (c) => c.json(await refreshExpiringTokens(deps, providers), 200))

  return app
}
