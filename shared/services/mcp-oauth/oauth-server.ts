import { requireRole } from '@shared/infra/caller.ts'
import { randomBase62, sha256Hex } from '@shared/infra/crypto.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import type { ToolListing } from '../tools/tool-listing.ts'
import { requireOwnConnections, type ToolSubset } from '../tools/tool-subset.ts'
import {
  clientFromMetadataDocument,
  isMetadataDocumentClientId,
  MetadataDocumentError,
} from './client-metadata-document.ts'

/**
 * The tool server's OAuth 2.1 authorization server for MCP clients (docs/mcp.md, ADR 0008):
 * dynamic client registration (RFC 7591, public clients only) and, beside it, clients named by
 * the URL of their metadata document (client-metadata-document.ts), authorization requests with PKCE
 * (S256 only) and a resource indicator (RFC 8707: the tool server), a consent step decided by a
 * signed-in owner or admin of the tenant, single-use codes, access tokens of one hour and
 * rotating refresh tokens of 30 days, and revocation (RFC 7009). Tokens are random and stored
 * hashed; a token is good for its grant only: tenant, user, scopes, the tool server.
 */

const ACCESS_TOKEN_PREFIX = 'mcpat_'
const REFRESH_TOKEN_PREFIX = 'mcprt_'
const CODE_PREFIX = 'mcpac_'
const ACCESS_TOKEN_SECONDS = 3600
const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600
const REQUEST_SECONDS = 600
const TOKEN_RANDOM = 43

/** OAuth's own error answers (RFC 6749 5.2), not the platform's error body. */
/** Who may connect an MCP client to the tenant (as who may create a tool-server key). */
const consentRoles = ['owner', 'admin'] as const

export class OAuthError extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'invalid_redirect_uri'
      | 'invalid_client_metadata',
    readonly description: string,
    readonly status = 400,
  ) {
    super(description)
  }
  body() {
    return { error: this.error, error_description: this.description }
  }
}

/**
 * A redirect URI a public client may register: https, http on a loopback address (native apps,
 * RFC 8252), or a private-use scheme (`cursor://`, `vscode://`); never a fragment, and none of
 * the schemes a browser would run (javascript:, data:, file:).
 */
function acceptableRedirectUri(uri: string): boolean {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return false
  }
  if (url.hash || uri.length > 2000) return false
  if (url.protocol === 'https:') return true
  if (url.protocol === 'http:') return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$|^(cursor|vscode|vscode-insiders|claude):$/.test(url.protocol)
}

export interface ClientRegistration {
  redirect_uris: string[]
  client_name?: string
  grant_types?: string[]
  response_types?: string[]
  token_endpoint_auth_method?: string
}

export async function registerClient(deps: FunctionDeps, input: ClientRegistration) {
  if (input.token_endpoint_auth_method && input.token_endpoint_auth_method !== 'none')
    throw new OAuthError('invalid_client_metadata', 'Only public clients (token_endpoint_auth_method none)')
  for (const g of input.grant_types ?? [])
    if (g !== 'authorization_code' && g !== 'refresh_token')
      throw new OAuthError('invalid_client_metadata', `Unsupported grant type ${g.slice(0, 50)}`)
  for (const r of input.response_types ?? [])
    if (r !== 'code') throw new OAuthError('invalid_client_metadata', 'Only response_type code')
  for (const uri of input.redirect_uris)
    if (!acceptableRedirectUri(uri))
      throw new OAuthError('invalid_redirect_uri', `Not an acceptable redirect URI: ${uri.slice(0, 200)}`)
  const clientId = `mcpc_${randomBase62(24)}`
  const name = input.client_name?.trim() || 'Unnamed MCP client'
  const [row] = await deps.sql<{ created_at: Date }[]>`
    insert into private.mcp_oauth_clients (client_id, client_name, redirect_uris)
    values (${clientId}, ${name}, ${input.redirect_uris}) returning created_at`
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(row!.created_at.getTime() / 1000),
    client_name: name,
    redirect_uris: input.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none' as const,
  }
}

/**
 * A registered client (mcpc_ id), or one named by the URL of its metadata document. Throws
 * MetadataDocumentError when such a document cannot be used.
 */
async function findClient(deps: FunctionDeps, clientId: string) {
  if (isMetadataDocumentClientId(clientId))
    return clientFromMetadataDocument(deps, clientId, acceptableRedirectUri)
  const [client] = await deps.sql<{ client_id: string; client_name: string; redirect_uris: string[] }[]>`
    select client_id, client_name, redirect_uris from private.mcp_oauth_clients where client_id = ${clientId}`
  return client
}

export interface AuthorizeParams {
  response_type?: string
  client_id?: string
  redirect_uri?: string
  code_challenge?: string
  code_challenge_method?: string
  state?: string
  scope?: string
  resource?: string
}

/**
 * Checks an authorization request. The client and its redirect URI first: a request that fails
 * them is answered here (`fatal`), never redirected to an address the client did not register.
 * Anything else wrong goes back to the client's redirect URI as an OAuth error. A good request is
 * stored, and the user is sent to the consent page with its id.
 */
export async function startAuthorization(
  deps: FunctionDeps,
  params: AuthorizeParams,
  resource: string,
  allowedScopes: readonly string[],
): Promise<{ fatal: string } | { redirect: string } | { requestId: string }> {
  let client: Awaited<ReturnType<typeof findClient>>
  try {
    client = params.client_id ? await findClient(deps, params.client_id) : undefined
  } catch (err) {
    if (err instanceof MetadataDocumentError) return { fatal: `client_id: ${err.message}` }
    throw err
  }
  if (!client) return { fatal: 'Unknown client_id: register the client first' }
  const redirectUri =
    params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined)
  if (!redirectUri || !client.redirect_uris.includes(redirectUri))
    return { fatal: 'redirect_uri is not one the client registered' }
  const back = (error: string, description: string) => {
    const url = new URL(redirectUri)
    url.searchParams.set('error', error)
    url.searchParams.set('error_description', description)
    if (params.state) url.searchParams.set('state', params.state)
    return { redirect: url.toString() }
  }
  if (params.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code')
  if (
    !params.code_challenge ||
    params.code_challenge_method !== 'S256' ||
    !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge)
  )
    return back('invalid_request', 'PKCE is required: code_challenge with code_challenge_method S256')
  if (params.resource !== undefined && params.resource.replace(/\/+$/, '') !== resource)
    return back('invalid_target', `resource must be ${resource}`)
  const asked = (params.scope ?? '').split(' ').filter(Boolean)
  const unknown = asked.filter((s) => !allowedScopes.includes(s))
  if (unknown.length) return back('invalid_scope', `Unknown scope ${unknown[0]!.slice(0, 50)}`)
  const scopes = asked.length ? [...new Set(asked)] : [...allowedScopes]
  if (params.state && params.state.length > 500) return back('invalid_request', 'state is too long')
  const id = crypto.randomUUID()
  await deps.sql`
    insert into private.mcp_oauth_requests (id, client_id, client_name, redirect_uri, state, code_challenge, scopes, resource, expires_at)
    values (${id}, ${client.client_id}, ${client.client_name}, ${redirectUri}, ${params.state ?? null}, ${params.code_challenge},
      ${scopes}, ${resource}, ${new Date(deps.clock.now().getTime() + REQUEST_SECONDS * 1000)})`
  return { requestId: id }
}

interface PendingRequest {
  id: string
  client_id: string
  client_name: string
  redirect_uri: string
  state: string | null
  scopes: string[]
  resource: string
}

async function pendingRequest(ctx: ServiceContext, id: string): Promise<PendingRequest> {
  const [row] = await ctx.asOwner<PendingRequest[]>`
    select r.id, r.client_id, coalesce(r.client_name, c.client_name) as client_name, r.redirect_uri, r.state, r.scopes, r.resource
    from private.mcp_oauth_requests r left join private.mcp_oauth_clients c using (client_id)
    where r.id = ${id} and r.code_hash is null and r.expires_at > ${ctx.clock.now()}`
  if (!row) throw new ServiceError('NOT_FOUND', 'No such authorization request, or it has expired')
  return row
}

/** What the consent page shows: the client, where it returns to, the tenant and the scopes. */
export async function describeRequest(ctx: ServiceContext, id: string) {
  const request = await pendingRequest(ctx, id)
  const [tenant] = await ctx.readAsTenant(
    (q) => q<{ name: string }[]>`select name from public.tenants where id = ${ctx.caller.tenantId}`,
  )
  return {
    id: request.id,
    client_id: request.client_id,
    client_name: request.client_name,
    redirect_uri: request.redirect_uri,
    scopes: request.scopes,
    resource: request.resource,
    tenant: { id: ctx.caller.tenantId, name: tenant?.name ?? '' },
  }
}

/**
 * The user's decision. Approving binds the request to the caller's tenant and user (an owner or
 * admin: who may create a tool-server key) and gives it a single-use code; either way the answer
 * is where the browser goes next, the client's redirect URI.
 */
export async function decideRequest(
  ctx: ServiceContext,
  id: string,
  approve: boolean,
  opts: { toolSubset?: ToolSubset | null; toolListing?: ToolListing } = {},
) {
  const request = await pendingRequest(ctx, id)
  const url = new URL(request.redirect_uri)
  if (request.state) url.searchParams.set('state', request.state)
  if (!approve) {
    await ctx.asOwner`delete from private.mcp_oauth_requests where id = ${id}`
    url.searchParams.set('error', 'access_denied')
    url.searchParams.set('error_description', 'The user declined')
    return { redirect_to: url.toString() }
  }
  requireRole(ctx.caller, consentRoles)
  const toolSubset = opts.toolSubset ?? null
  if (toolSubset)
    await ctx.readAsTenant((q) => requireOwnConnections(q, ctx.caller.tenantId, toolSubset.connections))
  const code = `${CODE_PREFIX}${randomBase62(TOKEN_RANDOM)}`
  const [updated] = await ctx.asOwner`
    update private.mcp_oauth_requests
    set tenant_id = ${ctx.caller.tenantId}, user_id = ${ctx.caller.userId}, code_hash = ${sha256Hex(code)},
        tool_subset = ${toolSubset ? JSON.stringify(toolSubset) : null}::text::jsonb,
        tool_listing = ${opts.toolListing ?? 'all'},
        expires_at = ${new Date(ctx.clock.now().getTime() + 60_000)}
    where id = ${id} and code_hash is null returning id`
  if (!updated) throw new ServiceError('NOT_FOUND', 'No such authorization request, or it has expired')
  url.searchParams.set('code', code)
  return { redirect_to: url.toString() }
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

async function issueTokens(deps: FunctionDeps, grantId: string, scopes: string[]) {
  const now = deps.clock.now().getTime()
  const access = `${ACCESS_TOKEN_PREFIX}${randomBase62(TOKEN_RANDOM)}`
  const refresh = `${REFRESH_TOKEN_PREFIX}${randomBase62(TOKEN_RANDOM)}`
  await deps.sql`
    insert into private.mcp_oauth_tokens (token_hash, grant_id, kind, expires_at) values
      (${sha256Hex(access)}, ${grantId}, 'access', ${new Date(now + ACCESS_TOKEN_SECONDS * 1000)}),
      (${sha256Hex(refresh)}, ${grantId}, 'refresh', ${new Date(now + REFRESH_TOKEN_SECONDS * 1000)})`
  return {
    access_token: access,
    token_type: 'Bearer' as const,
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scopes.join(' '),
  }
}

export interface TokenParams {
  grant_type?: string
  code?: string
  redirect_uri?: string
  client_id?: string
  code_verifier?: string
  refresh_token?: string
  resource?: string
}

/**
 * A grant holds while the user who consented may still consent: a member of the tenant with the
 * role consenting needs (owner or admin, as for a tool-server key). Checked when a code or a
 * refresh token is exchanged; removal from the tenant also revokes the grants at once.
 */
async function assertMayConnect(deps: FunctionDeps, tenantId: string, userId: string): Promise<void> {
  const [member] = await deps.sql<{ role: string }[]>`
    select role from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
  if (!member || !consentRoles.some((r) => r === member.role))
    throw new OAuthError(
      'invalid_grant',
      'The user who authorized this client is no longer an owner or admin of the tenant; the grant is revoked',
    )
}

/** The token endpoint: a code (with its PKCE verifier) or a refresh token, for tokens. */
export async function exchangeToken(deps: FunctionDeps, params: TokenParams, resource: string) {
  if (!params.client_id) throw new OAuthError('invalid_client', 'client_id is required', 401)
  const client = await findClient(deps, params.client_id).catch((err) => {
    if (err instanceof MetadataDocumentError) throw new OAuthError('invalid_client', err.message, 401)
    throw err
  })
  if (!client) throw new OAuthError('invalid_client', 'Unknown client', 401)
  if (params.resource !== undefined && params.resource.replace(/\/+$/, '') !== resource)
    throw new OAuthError('invalid_grant', `resource must be ${resource}`)
  const now = deps.clock.now()
  if (params.grant_type === 'authorization_code') {
    if (!params.code || !params.code_verifier)
      throw new OAuthError('invalid_request', 'code and code_verifier are required')
    // Single use: the row goes whatever the outcome.
    const [request] = await deps.sql<
      {
        client_id: string
        redirect_uri: string
        code_challenge: string
        scopes: string[]
        resource: string
        tenant_id: string
        user_id: string
        expires_at: Date
        tool_subset: ToolSubset | null
        tool_listing: ToolListing
      }[]
    >`delete from private.mcp_oauth_requests where code_hash = ${sha256Hex(params.code)}
      returning client_id, redirect_uri, code_challenge, scopes, resource, tenant_id, user_id, expires_at, tool_subset, tool_listing`
    if (!request || request.expires_at <= now || request.client_id !== client.client_id)
      throw new OAuthError('invalid_grant', 'The code is unknown, used, expired or not this client’s')
    if (params.redirect_uri !== undefined && params.redirect_uri !== request.redirect_uri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request')
    // PKCE S256 (RFC 7636): the verifier's SHA-256, base64url without padding.
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(params.code_verifier))
    const challenge = base64url(new Uint8Array(digest))
    if (challenge !== request.code_challenge)
      throw new OAuthError('invalid_grant', 'PKCE verification failed')
    await assertMayConnect(deps, request.tenant_id, request.user_id)
    const [grant] = await deps.sql<{ id: string }[]>`
      insert into public.mcp_oauth_grants (tenant_id, user_id, client_id, client_name, scopes, resource, tool_subset, tool_listing)
      values (${request.tenant_id}, ${request.user_id}, ${client.client_id}, ${client.client_name}, ${request.scopes}, ${request.resource},
              ${request.tool_subset ? JSON.stringify(request.tool_subset) : null}::text::jsonb, ${request.tool_listing})
      returning id`
    return issueTokens(deps, grant!.id, request.scopes)
  }
  if (params.grant_type === 'refresh_token') {
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required')
    const hash = sha256Hex(params.refresh_token)
    // Rotation: the first use marks the token; a concurrent or later use finds it marked.
    const [fresh] = await deps.sql<{ grant_id: string; expires_at: Date }[]>`
      update private.mcp_oauth_tokens set used_at = ${now}
      where token_hash = ${hash} and kind = 'refresh' and used_at is null
      returning grant_id, expires_at`
    if (!fresh) {
      const [used] = await deps.sql<{ grant_id: string }[]>`
        select grant_id from private.mcp_oauth_tokens where token_hash = ${hash} and kind = 'refresh'`
      if (used) {
        // Used before: it leaked, or two copies of the client raced. Either way the grant ends.
        await deps.sql`update public.mcp_oauth_grants set revoked_at = ${now} where id = ${used.grant_id} and revoked_at is null`
        throw new OAuthError('invalid_grant', 'The refresh token was already used; the grant is revoked')
      }
      throw new OAuthError('invalid_grant', 'Unknown refresh token')
    }
    const [token] = await deps.sql<
      {
        grant_id: string
        tenant_id: string
        user_id: string
        client_id: string
        scopes: string[]
        revoked_at: Date | null
      }[]
    >`
      select id as grant_id, tenant_id, user_id, client_id, scopes, revoked_at
      from public.mcp_oauth_grants where id = ${fresh.grant_id}`
    if (!token || token.client_id !== client.client_id || token.revoked_at || fresh.expires_at <= now)
      throw new OAuthError('invalid_grant', 'The refresh token is expired, revoked or not this client’s')
    await assertMayConnect(deps, token.tenant_id, token.user_id).catch(async (err) => {
      await deps.sql`update public.mcp_oauth_grants set revoked_at = ${now} where id = ${token.grant_id} and revoked_at is null`
      throw err
    })
    return issueTokens(deps, token.grant_id, token.scopes)
  }
  throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
}

/** RFC 7009: revoking either token of a grant revokes the grant. Unknown tokens are no error. */
export async function revokeToken(deps: FunctionDeps, token: string, clientId: string | undefined) {
  await deps.sql`
    update public.mcp_oauth_grants g set revoked_at = ${deps.clock.now()}
    from private.mcp_oauth_tokens t
    where t.token_hash = ${sha256Hex(token)} and g.id = t.grant_id and g.revoked_at is null
      ${clientId ? deps.sql`and g.client_id = ${clientId}` : deps.sql``}`
}

export interface ConnectedClient {
  id: string
  client_id: string
  client_name: string
  user_id: string
  scopes: string[]
  tool_subset: ToolSubset | null
  tool_listing: ToolListing
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

/** The tenant's connected MCP clients (grants), newest first, read as the tenant. */
export async function listConnectedClients(ctx: ServiceContext): Promise<ConnectedClient[]> {
  const rows = await ctx.asTenant(
    (tx) => tx<
      {
        id: string
        client_id: string
        client_name: string
        user_id: string
        scopes: string[]
        tool_subset: ToolSubset | null
        tool_listing: ToolListing
        created_at: Date
        last_used_at: Date | null
        revoked_at: Date | null
      }[]
    >`select id, client_id, client_name, user_id, scopes, tool_subset, tool_listing, created_at, last_used_at, revoked_at
    from public.mcp_oauth_grants where tenant_id = ${ctx.caller.tenantId}
    order by created_at desc, id limit 200`,
  )
  return rows.map((r) => ({
    ...r,
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
  }))
}

/** Revokes a connected client (owners and admins, by row-level security): its tokens stop at once. */
export async function revokeConnectedClient(ctx: ServiceContext, id: string): Promise<void> {
  const rows = await ctx.asTenant(
    (tx) => tx`
    update public.mcp_oauth_grants set revoked_at = coalesce(revoked_at, ${ctx.clock.now()})
    where id = ${id} and tenant_id = ${ctx.caller.tenantId} returning id`,
  )
  if (!rows.length) throw new ServiceError('NOT_FOUND', 'No such connected client')
}
