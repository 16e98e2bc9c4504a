import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js'
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js'
import type { Config } from '@shared/infra/config.ts'
import type { DepsWithoutDatabase } from '@shared/infra/deps.ts'
import {
  assertPublicUrl,
  OutboundBlockedError,
  OutboundError,
  type OutboundPolicy,
  outboundPolicyFrom,
} from '@shared/infra/outbound.ts'
import { callbackUrl, TokenEndpointError, type TokenSet } from './oauth.ts'

/**
 * The MCP authorization flow (2025-11-25) as a client, for a connected MCP server that answers
 * 401 with a Bearer challenge: its protected resource metadata (RFC 9728), its authorization
 * server's metadata (RFC 8414), dynamic client registration (RFC 7591), PKCE S256 and the resource
 * indicator (RFC 8707). The protocol steps are the MCP SDK's; every request goes through the
 * guarded fetch, and what the metadata says is checked before anything is sent where it points.
 */

const METADATA_TIMEOUT_MS = 10_000
const METADATA_MAX_BYTES = 256 * 1024

/** What a connection keeps (not secret) to refresh its tokens: stored as mcp_oauth. */
export interface McpOAuthServer {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  revocation_endpoint?: string
  token_endpoint_auth_methods_supported?: string[]
  /** RFC 9207: the server says it names itself in authorization responses. */
  iss_parameter_supported: boolean
  client_id: string
  /** The RFC 8707 resource indicator, as the protected resource metadata names it. */
  resource: string
  scope?: string
}

/** Why the flow cannot start (or a token request failed) with what the server published. */
export class McpAuthError extends Error {
  override name = 'McpAuthError'
  constructor(
    readonly reason: 'blocked' | 'no_metadata' | 'invalid_metadata' | 'registration_failed' | 'unreachable',
    message: string,
  ) {
    super(message)
  }
}

const CLIENT_NAME = 'Tenant platform integrations'

/** Where the platform's client ID metadata document is served (its client_id where it is used). */
const clientMetadataUrl = (config: Pick<Config, 'PUBLIC_URL'>) =>
  new URL('/api/integrations/client-metadata.json', config.PUBLIC_URL).toString()

/**
 * The platform as an OAuth client, described by itself: a public client (PKCE, no secret) whose
 * only redirect is the integrations callback.
 */
export function clientMetadataDocument(config: Pick<Config, 'PUBLIC_URL'>) {
  return {
    client_id: clientMetadataUrl(config),
    client_name: CLIENT_NAME,
    redirect_uris: [callbackUrl(config)],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none' as const,
  }
}

/** The SDK's fetch: the guarded one, bounded in time and size. */
function sdkFetch(deps: DepsWithoutDatabase) {
  return (url: string | URL, init?: RequestInit) =>
    deps.fetch(url, { ...init, timeoutMs: METADATA_TIMEOUT_MS, maxResponseBytes: METADATA_MAX_BYTES })
}

/** https, or http where the deployment's outbound policy allows it (local and test set-ups only). */
function schemeProblem(value: unknown, what: string, policy: OutboundPolicy): string | null {
  if (typeof value !== 'string') return `${what} is missing`
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `${what} is not a URL`
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && policy.allowHttp)) return null
  return `${what} must be https (${url.protocol.replace(':', '')} given)`
}

/**
 * What is wrong with an authorization server's metadata for a client that found it at `issuer`:
 * its issuer must be that identifier exactly (RFC 8414 section 3.3, else another server's metadata
 * is being passed off), it must take PKCE S256 and the code flow, and every endpoint must be https.
 */
export function authorizationServerProblem(
  metadata: Record<string, unknown>,
  issuer: string,
  policy: OutboundPolicy,
): string | null {
  if (metadata.issuer !== issuer)
    return `the authorization server metadata names issuer ${String(metadata.issuer).slice(0, 200)}, not ${issuer}`
  const methods = metadata.code_challenge_methods_supported
  if (!Array.isArray(methods) || !methods.includes('S256'))
    return 'the authorization server does not announce PKCE with S256'
  const types = metadata.response_types_supported
  if (Array.isArray(types) && !types.includes('code'))
    return 'the authorization server does not offer the authorization code flow'
  for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint'] as const) {
    const problem = schemeProblem(metadata[field], field, policy)
    if (problem) return problem
  }
  for (const field of ['registration_endpoint', 'revocation_endpoint'] as const) {
    if (metadata[field] === undefined) continue
    const problem = schemeProblem(metadata[field], field, policy)
    if (problem) return problem
  }
  return null
}

/**
 * Whether the server asks for OAuth: an unauthenticated initialize that answers 401 with a Bearer
 * challenge. Its resource_metadata (and scope) are what the flow starts from; null when it does
 * not answer 401.
 */
export async function probeChallenge(
  deps: DepsWithoutDatabase,
  serverUrl: string,
): Promise<{ resourceMetadataUrl?: URL; scope?: string } | null> {
  const res = await deps.fetch(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'tenant-platform-integrations', version: '1.0.0' },
      },
    }),
    timeoutMs: METADATA_TIMEOUT_MS,
    maxResponseBytes: METADATA_MAX_BYTES,
  })
  if (res.status !== 401) return null
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res)
  return { ...(resourceMetadataUrl && { resourceMetadataUrl }), ...(scope && { scope }) }
}

const blockedOrUnreachable = (err: unknown, what: string): McpAuthError | null => {
  if (err instanceof OutboundBlockedError)
    return new McpAuthError('blocked', `${what} address is refused: ${err.reason}`)
  if (err instanceof OutboundError) return new McpAuthError('unreachable', `${what}: ${err.message}`)
  return null
}

/** The authorization request's start: where the user goes, and what the callback needs. */
export interface McpAuthorizationStart {
  authorizationUrl: string
  codeVerifier: string
  server: McpOAuthServer
  /** A secret the server registered the client with, if it issued one. */
  clientSecret?: string
}

/**
 * Discovery, registration and the authorization URL. `state` is the flow's single-use state;
 * the redirect is the integrations callback. Throws McpAuthError.
 */
export async function beginMcpAuthorization(
  deps: DepsWithoutDatabase,
  input: { serverUrl: string; challenge: { resourceMetadataUrl?: URL; scope?: string }; state: string },
): Promise<McpAuthorizationStart> {
  const policy = outboundPolicyFrom(deps.config)
  const fetchFn = sdkFetch(deps)

  if (input.challenge.resourceMetadataUrl) {
    const problem = schemeProblem(input.challenge.resourceMetadataUrl.href, 'resource_metadata', policy)
    if (problem) throw new McpAuthError('invalid_metadata', problem)
  }
  let resource: Awaited<ReturnType<typeof discoverOAuthProtectedResourceMetadata>>
  try {
    resource = await discoverOAuthProtectedResourceMetadata(
      input.serverUrl,
      input.challenge.resourceMetadataUrl ? { resourceMetadataUrl: input.challenge.resourceMetadataUrl } : {},
      fetchFn,
    )
  } catch (err) {
    throw (
      blockedOrUnreachable(err, 'the protected resource metadata') ??
      new McpAuthError('no_metadata', 'the server publishes no readable protected resource metadata')
    )
  }
  if (!checkResourceAllowed({ requestedResource: input.serverUrl, configuredResource: resource.resource }))
    throw new McpAuthError(
      'invalid_metadata',
      `the protected resource metadata is for ${resource.resource.slice(0, 200)}, not this server`,
    )
  const issuer = resource.authorization_servers?.[0]
  if (!issuer)
    throw new McpAuthError(
      'invalid_metadata',
      'the protected resource metadata names no authorization server',
    )
  const issuerProblem = schemeProblem(issuer, 'the authorization server', policy)
  if (issuerProblem) throw new McpAuthError('invalid_metadata', issuerProblem)
  try {
    await assertPublicUrl(issuer, policy)
  } catch (err) {
    throw blockedOrUnreachable(err, 'the authorization server') ?? err
  }

  let metadata: AuthorizationServerMetadata | undefined
  try {
    metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn })
  } catch (err) {
    throw (
      blockedOrUnreachable(err, 'the authorization server metadata') ??
      new McpAuthError('no_metadata', 'the authorization server metadata is unreadable')
    )
  }
  if (!metadata) throw new McpAuthError('no_metadata', 'the authorization server publishes no metadata')
  const problem = authorizationServerProblem(metadata as Record<string, unknown>, issuer, policy)
  if (problem) throw new McpAuthError('invalid_metadata', problem)

  // The scope the challenge asks for, else everything the resource supports (the MCP spec's order).
  const scope = input.challenge.scope ?? resource.scopes_supported?.join(' ') ?? undefined
  const redirectUrl = callbackUrl(deps.config)
  // A client ID metadata document where the server takes one (the MCP specification's preference
  // over registration) and this platform's is served; else dynamic registration.
  const client: OAuthClientInformationMixed =
    metadata.client_id_metadata_document_supported === true && (await documentServed(deps, policy))
      ? { client_id: clientMetadataUrl(deps.config) }
      : await registerDynamically(deps, issuer, metadata, scope)

  const { authorizationUrl, codeVerifier } = await startAuthorization(issuer, {
    metadata,
    clientInformation: client,
    redirectUrl,
    ...(scope && { scope }),
    state: input.state,
    resource: resource.resource,
  })
  return {
    authorizationUrl: authorizationUrl.toString(),
    codeVerifier,
    clientSecret: client.client_secret,
    server: {
      issuer,
      authorization_endpoint: metadata.authorization_endpoint,
      token_endpoint: metadata.token_endpoint,
      ...(typeof (metadata as Record<string, unknown>).revocation_endpoint === 'string' && {
        revocation_endpoint: (metadata as Record<string, unknown>).revocation_endpoint as string,
      }),
      ...(metadata.token_endpoint_auth_methods_supported && {
        token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported,
      }),
      iss_parameter_supported:
        (metadata as Record<string, unknown>).authorization_response_iss_parameter_supported === true,
      client_id: client.client_id,
      resource: resource.resource,
      ...(scope && { scope }),
    },
  }
}

/**
 * Whether the platform's metadata document answers at its public address, as the authorization
 * server will fetch it: https (http where the policy allows it), and the document that names
 * itself. Known for a few minutes per process.
 */
const servedUntil = new Map<string, { served: boolean; until: number }>()
const SERVED_TTL_MS = 5 * 60_000

async function documentServed(deps: DepsWithoutDatabase, policy: OutboundPolicy): Promise<boolean> {
  const url = clientMetadataUrl(deps.config)
  if (schemeProblem(url, 'client_id', policy)) return false
  const now = deps.clock.now().getTime()
  const known = servedUntil.get(url)
  if (known && known.until > now) return known.served
  let served = false
  try {
    const res = await deps.fetch(url, {
      headers: { accept: 'application/json' },
      timeoutMs: 5_000,
      maxResponseBytes: 5 * 1024,
      redirect: 'error',
    })
    served = res.ok && ((await res.json()) as { client_id?: unknown } | null)?.client_id === url
  } catch {
    served = false
  }
  servedUntil.set(url, { served, until: now + SERVED_TTL_MS })
  return served
}

/** RFC 7591 registration: a public client where the server takes one, else one with a secret. */
async function registerDynamically(
  deps: DepsWithoutDatabase,
  issuer: string,
  metadata: AuthorizationServerMetadata,
  scope: string | undefined,
): Promise<OAuthClientInformationMixed> {
  if (!metadata.registration_endpoint)
    throw new McpAuthError(
      'registration_failed',
      'the authorization server takes neither dynamic client registration nor client ID metadata documents',
    )
  const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic']
  const authMethod = methods.includes('none')
    ? 'none'
    : methods.includes('client_secret_basic')
      ? 'client_secret_basic'
      : 'client_secret_post'
  try {
    return await registerClient(issuer, {
      metadata,
      clientMetadata: {
        client_name: CLIENT_NAME,
        redirect_uris: [callbackUrl(deps.config)],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: authMethod,
      },
      ...(scope && { scope }),
      fetchFn: sdkFetch(deps),
    })
  } catch (err) {
    throw (
      blockedOrUnreachable(err, 'the registration endpoint') ??
      new McpAuthError(
        'registration_failed',
        `the authorization server refused the client registration${err instanceof OAuthError ? ` (${err.errorCode})` : ''}`,
      )
    )
  }
}

/** The stored server as the SDK's metadata (what its token requests read). */
function sdkMetadata(server: McpOAuthServer): AuthorizationServerMetadata {
  return {
    issuer: server.issuer,
    authorization_endpoint: server.authorization_endpoint,
    token_endpoint: server.token_endpoint,
    response_types_supported: ['code'],
    ...(server.token_endpoint_auth_methods_supported && {
      token_endpoint_auth_methods_supported: server.token_endpoint_auth_methods_supported,
    }),
  }
}

function tokenSet(tokens: OAuthTokens, now: Date): TokenSet {
  if (!tokens.access_token || tokens.access_token.length > 8192)
    throw new TokenEndpointError('rejected', 'token endpoint returned no usable access_token')
  const expiresIn = Number(tokens.expires_in)
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token && tokens.refresh_token.length <= 8192 ? tokens.refresh_token : null,
    expiresAt:
      Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : null,
    raw: {},
  }
}

/** The SDK's token errors as the refresh job reads them: invalid_grant ends the grant. */
function asTokenError(err: unknown): TokenEndpointError {
  if (err instanceof TokenEndpointError) return err
  if (err instanceof OutboundBlockedError)
    return new TokenEndpointError('rejected', `token endpoint refused by outbound policy: ${err.reason}`)
  if (err instanceof OAuthError) {
    if (err.errorCode === 'invalid_grant')
      return new TokenEndpointError(
        'invalid_grant',
        'the grant is invalid, expired or revoked',
        'invalid_grant',
      )
    if (err.errorCode === 'server_error' || err.errorCode === 'temporarily_unavailable')
      return new TokenEndpointError('transient', `token endpoint answered ${err.errorCode}`, err.errorCode)
    return new TokenEndpointError('rejected', `token endpoint answered ${err.errorCode}`, err.errorCode)
  }
  return new TokenEndpointError(
    'transient',
    `token endpoint unreachable (${err instanceof OutboundError ? err.kind : 'network'})`,
  )
}

const clientInformation = (server: McpOAuthServer, clientSecret: string | null) => ({
  client_id: server.client_id,
  ...(clientSecret && { client_secret: clientSecret }),
})

/** The code exchange at the callback (PKCE verifier, resource). Throws TokenEndpointError. */
export async function exchangeMcpCode(
  deps: DepsWithoutDatabase,
  server: McpOAuthServer,
  clientSecret: string | null,
  code: string,
  codeVerifier: string,
): Promise<TokenSet> {
  try {
    const tokens = await exchangeAuthorization(server.issuer, {
      metadata: sdkMetadata(server),
      clientInformation: clientInformation(server, clientSecret),
      authorizationCode: code,
      codeVerifier,
      redirectUri: callbackUrl(deps.config),
      resource: server.resource,
      fetchFn: sdkFetch(deps),
    })
    return tokenSet(tokens, deps.clock.now())
  } catch (err) {
    throw asTokenError(err)
  }
}

/** A refresh for the hourly job (and a tool call that finds the token expired). */
export async function refreshMcpTokens(
  deps: DepsWithoutDatabase,
  server: McpOAuthServer,
  clientSecret: string | null,
  refreshToken: string,
): Promise<TokenSet> {
  try {
    const tokens = await refreshAuthorization(server.issuer, {
      metadata: sdkMetadata(server),
      clientInformation: clientInformation(server, clientSecret),
      refreshToken,
      resource: server.resource,
      fetchFn: sdkFetch(deps),
    })
    return tokenSet(tokens, deps.clock.now())
  } catch (err) {
    throw asTokenError(err)
  }
}

/** RFC 7009 revocation at the server's revocation endpoint; best effort (the connection goes either way). */
export async function revokeMcpToken(
  deps: DepsWithoutDatabase,
  server: McpOAuthServer,
  clientSecret: string | null,
  token: string,
  hint: 'access_token' | 'refresh_token',
): Promise<boolean> {
  if (!server.revocation_endpoint) return false
  const form = new URLSearchParams({ token, token_type_hint: hint, client_id: server.client_id })
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' })
  if (clientSecret) form.set('client_secret', clientSecret)
  try {
    const res = await deps.fetch(server.revocation_endpoint, {
      method: 'POST',
      headers,
      body: form.toString(),
      timeoutMs: METADATA_TIMEOUT_MS,
      redirect: 'error',
    })
    return res.ok
  } catch {
    return false
  }
}
