import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, ServiceError } from '@shared/infra/errors.ts'
import type { CatalogEntry } from './catalog.ts'
import {
  beginMcpAuthorization,
  exchangeMcpCode,
  McpAuthError,
  type McpOAuthServer,
  probeChallenge,
} from './mcp-auth.ts'
import { discoverMcpTools, McpConnectError } from './mcp-discovery.ts'
import {
  authorizationErrorCode,
  type ConsumedState,
  callbackUrl,
  newState,
  STATE_TTL_MS,
  storeState,
  TokenEndpointError,
  vaultPurposes,
} from './oauth.ts'
import { insertTools } from './stored-tools.ts'
import { recordIntegrationCall } from './usage-log.ts'

/**
 * Connecting an OAuth-protected MCP server: the connect request starts the MCP authorization flow
 * (mcp-auth.ts) and answers with the authorization URL; the integrations callback completes it,
 * discovers the tools with the new access token and stores the connection.
 */

/** What the state carries from the connect request to the callback (encrypted). */
interface PendingMcpConnection {
  integration_id: string
  server_url: string
  display_name: string
  server: McpOAuthServer
  client_secret: string | null
}

export interface AuthorizationStarted {
  authorization_url: string
  expires_at: string
  /** For the HttpOnly cookie that binds the flow to this browser (the route sets it). */
  binding: { cookieName: string; value: string; path: string; maxAgeSeconds: number; secure: boolean }
}

/** The server's Bearer challenge, when an unauthenticated request gets one (null: none). */
export async function challengeOf(
  ctx: ServiceContext,
  serverUrl: string,
): Promise<Awaited<ReturnType<typeof probeChallenge>>> {
  try {
    return await probeChallenge(ctx, serverUrl)
  } catch (err) {
    const reason = err instanceof Error && err.name === 'OutboundBlockedError'
    if (reason)
      throw invalidField('mcp_server_url', `the server address is refused: ${(err as Error).message}`)
    throw new ServiceError('UNPROCESSABLE', 'Cannot connect: the MCP server is unreachable', {
      details: [{ field: 'mcp_server_url', message: 'unreachable' }],
    })
  }
}

/** Discovery, registration and a stored state; the user is then sent to the authorization URL. */
export async function startMcpAuthorization(
  ctx: ServiceContext,
  entry: CatalogEntry,
  input: { serverUrl: string; displayName: string; challenge: { resourceMetadataUrl?: URL; scope?: string } },
): Promise<AuthorizationStarted> {
  const state = newState()
  let start: Awaited<ReturnType<typeof beginMcpAuthorization>>
  try {
    start = await beginMcpAuthorization(ctx, {
      serverUrl: input.serverUrl,
      challenge: input.challenge,
      state,
    })
  } catch (err) {
    if (!(err instanceof McpAuthError)) throw err
    if (err.reason === 'blocked') throw invalidField('mcp_server_url', err.message)
    throw new ServiceError('UNPROCESSABLE', `Cannot sign in at the MCP server: ${err.message}`, {
      details: [{ field: 'mcp_server_url', message: err.reason }],
    })
  }
  const pending: PendingMcpConnection = {
    integration_id: entry.integration_id,
    server_url: input.serverUrl,
    display_name: input.displayName,
    server: start.server,
    client_secret: start.clientSecret ?? null,
  }
  const { expiresAt, binding } = await storeState(ctx, ctx.caller, entry.slug, {
    state,
    verifier: start.codeVerifier,
    mcpFlow: pending,
  })
  const callback = new URL(callbackUrl(ctx.config))
  return {
    authorization_url: start.authorizationUrl,
    expires_at: expiresAt.toISOString(),
    binding: {
      ...binding,
      path: callback.pathname,
      maxAgeSeconds: STATE_TTL_MS / 1000,
      secure: callback.protocol === 'https:',
    },
  }
}

type Outcome = Record<string, string>

/**
 * The callback of an MCP authorization: the issuer check (RFC 9207), the code exchange, the tools
 * listed with the new token, the connection stored. Runs with the service connection: the caller
 * is the signed state.
 */
export async function completeMcpAuthorization(
  deps: FunctionDeps,
  state: ConsumedState & { mcp_flow_encrypted: string },
  query: { code?: string; error?: string; iss?: string },
  fail: (integration: string | null, error: string, description: string) => Outcome,
): Promise<Outcome> {
  const slug = state.integration_slug
  const pending = JSON.parse(
    await deps.vault.decrypt(state.tenant_id, state.mcp_flow_encrypted, vaultPurposes.mcpOAuthFlow),
  ) as PendingMcpConnection
  const { server } = pending
  if (query.iss !== undefined ? query.iss !== server.issuer : server.iss_parameter_supported) {
    deps.logger.warn('mcp authorization response from an unexpected issuer', {
      integration: slug,
      tenant_id: state.tenant_id,
    })
    return fail(
      slug,
      query.iss === undefined ? 'issuer_missing' : 'issuer_mismatch',
      'The authorization response did not come from the MCP server’s authorization server.',
    )
  }
  if (query.error) {
    const code = authorizationErrorCode(query.error)
    return fail(
      slug,
      code,
      code === 'access_denied'
        ? 'Consent was denied at the MCP server.'
        : 'The MCP server’s authorization server refused.',
    )
  }
  if (!query.code || !state.code_verifier_encrypted)
    return fail(slug, 'invalid_request', 'The authorization server sent no authorization code.')
  const verifier = await deps.vault.decrypt(
    state.tenant_id,
    state.code_verifier_encrypted,
    vaultPurposes.pkceVerifier,
  )
  let tokens: Awaited<ReturnType<typeof exchangeMcpCode>>
  try {
    tokens = await exchangeMcpCode(deps, server, pending.client_secret, query.code, verifier)
  } catch (err) {
    if (!(err instanceof TokenEndpointError)) throw err
    deps.logger.warn('mcp code exchange failed', {
      integration: slug,
      tenant_id: state.tenant_id,
      reason: err.message,
    })
    return fail(
      slug,
      'token_exchange_failed',
      'The MCP server’s authorization server did not exchange the code.',
    )
  }

  const started = performance.now()
  let discovered: Awaited<ReturnType<typeof discoverMcpTools>>
  try {
    discovered = await discoverMcpTools(deps, {
      slug,
      url: pending.server_url,
      authType: 'oauth',
      token: tokens.accessToken,
    })
  } catch (err) {
    if (!(err instanceof McpConnectError)) throw err
    return fail(slug, 'discovery_failed', `Signed in, but the tools could not be listed: ${err.message}`)
  }
  const elapsed = performance.now() - started
  const seal = (value: string, purpose: string) => deps.vault.encrypt(state.tenant_id, value, purpose)
  const access = await seal(tokens.accessToken, vaultPurposes.accessToken)
  const refresh = tokens.refreshToken ? await seal(tokens.refreshToken, vaultPurposes.refreshToken) : null
  const secret = pending.client_secret
    ? await seal(pending.client_secret, vaultPurposes.mcpClientSecret)
    : null
  const now = deps.clock.now()
  const id = await deps.sql.begin(async (tx) => {
    const member = tx`exists (select 1 from public.tenant_members
      where tenant_id = ${state.tenant_id} and user_id = ${state.user_id} and role in ('owner', 'admin'))`
    const scopes = tokens.scopes ?? server.scope?.split(' ') ?? []
    // Signing in again to a server whose grant ended reconnects that connection (its permissions
    // and usage stay with it) rather than adding another.
    const [again] = await tx<{ id: string }[]>`
      update public.integration_connections c set
        status = 'active', scopes = ${scopes}, access_token_encrypted = ${access}, refresh_token_encrypted = ${refresh},
        token_expires_at = ${tokens.expiresAt}, mcp_oauth = ${tx.json(server as never)},
        mcp_oauth_client_secret_encrypted = ${secret}, mcp_transport = ${discovered.transport},
        token_version = c.token_version + 1, refresh_failures = 0, refresh_next_attempt_at = null,
        last_refresh_error = null, refresh_locked_until = null, refresh_lease = null,
        tools_discovered_at = ${now}, updated_at = ${now}
      where c.id = (select id from public.integration_connections
                    where tenant_id = ${state.tenant_id} and integration_id = ${pending.integration_id}
                      and mcp_server_url = ${pending.server_url} and mcp_auth_type = 'oauth' and status = 'needs_reauth'
                    order by created_at, id limit 1 for update)
        and ${member}
      returning c.id`
    if (again)
      await tx`delete from public.integration_tools where tenant_id = ${state.tenant_id} and connection_id = ${again.id}`
    // Stored only while the user still owns or administers the tenant.
    const [row] = again
      ? [again]
      : await tx<{ id: string }[]>`
      insert into public.integration_connections
        (tenant_id, integration_id, integration_slug, connection_type, status, display_name, created_by, scopes,
         access_token_encrypted, refresh_token_encrypted, token_expires_at, mcp_server_url, mcp_auth_type, mcp_oauth,
         mcp_oauth_client_secret_encrypted, mcp_transport, tools_discovered_at, created_at, updated_at)
      select ${state.tenant_id}, ${pending.integration_id}, ${slug}, 'mcp', 'active', ${pending.display_name}, ${state.user_id},
             ${scopes}, ${access}, ${refresh}, ${tokens.expiresAt}, ${pending.server_url}, 'oauth',
             ${tx.json(server as never)}, ${secret}, ${discovered.transport}, ${now}, ${now}, ${now}
      where ${member}
      returning id`
    if (!row) return null
    await insertTools(tx, state.tenant_id, row.id, discovered.tools)
    await recordIntegrationCall(tx, {
      tenantId: state.tenant_id,
      integrationId: pending.integration_id,
      connectionId: row.id,
      toolName: 'tools/list',
      action: 'discover',
      triggeredBy: 'manual',
      userId: state.user_id,
      success: true,
      responseTimeMs: elapsed,
      at: now,
    })
    return row.id
  })
  if (!id)
    return fail(slug, 'not_permitted', 'Only owners and admins of the tenant can connect integrations.')
  return { status: 'connected', integration: slug, connection_id: id }
}
