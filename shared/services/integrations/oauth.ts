import type { Config } from '@shared/infra/config.ts'
import { randomBase62, sha256Hex, toBase64 } from '@shared/infra/crypto.ts'
import type { Queryable } from '@shared/infra/db.ts'
import type { DepsWithoutDatabase, ServiceContext } from '@shared/infra/deps.ts'
import { OutboundBlockedError, OutboundError } from '@shared/infra/outbound.ts'
import { permissionNames, type ResolvedProvider } from './catalog.ts'

/**
 * The OAuth 2.0 client side: authorization requests (state + PKCE), the code exchange, token
 * refresh, revocation and the account lookup. Provider differences are data (each provider's
 * module under providers/, indexed by catalog.ts).
 */

/** How long a user has to finish the consent screen. */
export const STATE_TTL_MS = 10 * 60 * 1000
const TOKEN_TIMEOUT_MS = 10_000

export const vaultPurposes = {
  accessToken: 'oauth-access-token',
  refreshToken: 'oauth-refresh-token',
  pkceVerifier: 'oauth-pkce-verifier',
  mcpToken: 'mcp-auth-token',
  /** The pending MCP connection an authorization carries to the callback. */
  mcpOAuthFlow: 'mcp-oauth-flow',
  mcpClientSecret: 'mcp-oauth-client-secret',
} as const

export function callbackUrl(config: Pick<Config, 'PUBLIC_URL'>): string {
  return new URL('/api/integrations/callback', config.PUBLIC_URL).toString()
}

function base64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
}

/**
 * The browser binding of a state (RFC 9700 section 4.7, against login CSRF): a random value the
 * authorize response sets in an HttpOnly, SameSite=Lax cookie and only its hash is stored with the
 * state; the callback completes the flow only when the same browser presents it. The cookie is
 * named after the state, so flows started in several tabs do not overwrite one another.
 */
export async function bindingCookieName(state: string): Promise<string> {
  return `oauth_binding_${sha256Hex(state).slice(0, 16)}`
}

/**
 * Starts an authorization: stores a single-use state (hashed; the PKCE verifier encrypted) bound
 * to the user, the tenant and the browser, and returns the provider's consent-screen URL with the
 * browser binding for the cookie.
 */
export async function beginAuthorization(
  deps: ServiceContext,
  provider: ResolvedProvider & { clientId: string },
  caller: { tenantId: string; userId: string },
): Promise<{ url: string; expiresAt: Date; binding: { cookieName: string; value: string } }> {
  const verifier = provider.pkce ? randomBase62(64) : null
  const { state, expiresAt, binding } = await storeState(deps, caller, provider.slug, { verifier })
  const url = new URL(provider.authorizeUrl)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('client_id', provider.clientId)
  url.searchParams.set('redirect_uri', callbackUrl(deps.config))
  url.searchParams.set('scope', provider.providerScopes.join(provider.scopeSeparator))
  url.searchParams.set('state', state)
  if (verifier) {
    url.searchParams.set('code_challenge', await pkceChallenge(verifier))
    url.searchParams.set('code_challenge_method', 'S256')
  }
  for (const [k, v] of Object.entries(provider.extraAuthorizeParams ?? {})) url.searchParams.set(k, v)
  return { url: url.toString(), expiresAt, binding }
}

/** An authorization response's error code as the dashboard may show it: a plain code, else a generic one. */
export const authorizationErrorCode = (error: string) =>
  /^[a-z_]{1,64}$/.test(error) ? error : 'authorization_failed'

/** A state value: ~256 bits. */
export const newState = () => randomBase62(43)

/**
 * Stores a single-use state (hashed; the PKCE verifier and an MCP flow encrypted) bound to the
 * user, the tenant and the browser; returns it with the browser binding for the cookie.
 */
export async function storeState(
  deps: ServiceContext,
  caller: { tenantId: string; userId: string },
  slug: string,
  secrets: { state?: string; verifier: string | null; mcpFlow?: unknown },
): Promise<{ state: string; expiresAt: Date; binding: { cookieName: string; value: string } }> {
  const state = secrets.state ?? newState()
  const binding = randomBase62(43)
  const now = deps.clock.now()
  const expiresAt = new Date(now.getTime() + STATE_TTL_MS)
  const verifierEncrypted = secrets.verifier
    ? await deps.vault.encrypt(caller.tenantId, secrets.verifier, vaultPurposes.pkceVerifier)
    : null
  const flowEncrypted =
    secrets.mcpFlow === undefined
      ? null
      : await deps.vault.encrypt(caller.tenantId, JSON.stringify(secrets.mcpFlow), vaultPurposes.mcpOAuthFlow)
  await deps.asOwner`
    insert into private.oauth_states (state_hash, browser_hash, tenant_id, user_id, integration_slug, code_verifier_encrypted, mcp_flow_encrypted, expires_at, created_at)
    values (${sha256Hex(state)}, ${sha256Hex(binding)}, ${caller.tenantId}, ${caller.userId}, ${slug}, ${verifierEncrypted}, ${flowEncrypted}, ${expiresAt}, ${now})`
  // Expired states are useless; dropping them here keeps the table small without another job.
  deps.asOwner`delete from private.oauth_states where expires_at < ${new Date(now.getTime() - STATE_TTL_MS)}`.catch(
    () => {},
  )
  return { state, expiresAt, binding: { cookieName: await bindingCookieName(state), value: binding } }
}

export interface ConsumedState {
  tenant_id: string
  user_id: string
  integration_slug: string
  code_verifier_encrypted: string | null
  /** Set when the authorization connects an OAuth-protected MCP server. */
  mcp_flow_encrypted: string | null
}

/**
 * Takes a state exactly once: the single UPDATE ... WHERE used_at IS NULL makes two concurrent
 * callbacks with the same state race on one row lock, and only the first gets it back.
 */
export async function consumeState(
  sql: Queryable,
  state: string,
  browserBinding: string | undefined,
  now: Date,
): Promise<ConsumedState | null> {
  // Without the browser's binding the state is not even looked at (nor spent).
  if (!browserBinding) return null
  const [row] = await sql<ConsumedState[]>`
    update private.oauth_states set used_at = ${now}
    where state_hash = ${sha256Hex(state)} and browser_hash = ${sha256Hex(browserBinding)}
      and used_at is null and expires_at > ${now}
    returning tenant_id, user_id, integration_slug, code_verifier_encrypted, mcp_flow_encrypted`
  return row ?? null
}

export interface TokenSet {
  accessToken: string
  refreshToken: string | null
  expiresAt: Date | null
  /** Granted scopes (as the spec's permission names), when the provider says; null means "as requested". */
  scopes: string[] | null
  raw: Record<string, unknown>
}

/** Why a token endpoint call failed; invalid_grant means the grant is gone (re-authorize). */
export class TokenEndpointError extends Error {
  override name = 'TokenEndpointError'
  constructor(
    readonly kind: 'invalid_grant' | 'rejected' | 'transient',
    message: string,
    readonly oauthError?: string,
  ) {
    super(message)
  }
}

function clientAuth(provider: ResolvedProvider, form: URLSearchParams, headers: Headers): void {
  if (provider.tokenAuth === 'client_secret_basic') {
    // RFC 6749 2.3.1: form-urlencode each part before joining.
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+')
    headers.set(
      'authorization',
      `Basic ${btoa(`${enc(provider.clientId ?? '')}:${enc(provider.clientSecret ?? '')}`)}`,
    )
  } else {
    form.set('client_id', provider.clientId ?? '')
    form.set('client_secret', provider.clientSecret ?? '')
  }
}

async function parseBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text()
  const type = res.headers.get('content-type') ?? ''
  try {
    if (type.includes('application/x-www-form-urlencoded'))
      return Object.fromEntries(new URLSearchParams(text))
    const parsed = JSON.parse(text) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function splitScopes(value: unknown): string[] | null {
  if (typeof value !== 'string') return null
  return value.split(/[\s,]+/).filter(Boolean)
}

async function tokenRequest(
  deps: DepsWithoutDatabase,
  provider: ResolvedProvider,
  params: Record<string, string>,
  now: Date,
): Promise<TokenSet> {
  const form = new URLSearchParams(params)
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  })
  clientAuth(provider, form, headers)
  let res: Response
  try {
    res = await deps.fetch(provider.tokenUrl, {
      method: 'POST',
      headers,
      body: form.toString(),
      timeoutMs: TOKEN_TIMEOUT_MS,
      redirect: 'error',
    })
  } catch (err) {
    if (err instanceof OutboundBlockedError)
      throw new TokenEndpointError('rejected', `token endpoint refused by outbound policy: ${err.reason}`)
    const what = err instanceof OutboundError ? err.kind : 'network'
    throw new TokenEndpointError('transient', `token endpoint unreachable (${what})`)
  }
  const body = await parseBody(res)
  // Slack answers 200 with {ok: false, error}; everyone else uses the status.
  const oauthError = typeof body.error === 'string' ? body.error.slice(0, 100) : undefined
  if (!res.ok || oauthError || body.ok === false) {
    if (res.status >= 500 || res.status === 429)
      throw new TokenEndpointError('transient', `token endpoint answered ${res.status}`, oauthError)
    if (oauthError === 'invalid_grant')
      throw new TokenEndpointError('invalid_grant', 'the grant is invalid, expired or revoked', oauthError)
    throw new TokenEndpointError(
      'rejected',
      `token endpoint answered ${res.status}${oauthError ? ` (${oauthError})` : ''}`,
      oauthError,
    )
  }
  if (
    typeof body.access_token !== 'string' ||
    body.access_token.length === 0 ||
    body.access_token.length > 8192
  ) {
    throw new TokenEndpointError('rejected', 'token endpoint returned no access_token')
  }
  const expiresIn = Number(body.expires_in)
  return {
    accessToken: body.access_token,
    refreshToken:
      typeof body.refresh_token === 'string' && body.refresh_token.length <= 8192 ? body.refresh_token : null,
    expiresAt:
      Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now.getTime() + expiresIn * 1000) : null,
    scopes: grantedAsPermissions(provider, splitScopes(body.scope)),
    raw: body,
  }
}

function grantedAsPermissions(provider: ResolvedProvider, granted: string[] | null): string[] | null {
  return granted && permissionNames(provider, granted)
}

export function exchangeCode(
  deps: DepsWithoutDatabase,
  provider: ResolvedProvider,
  code: string,
  codeVerifier: string | null,
): Promise<TokenSet> {
  return tokenRequest(
    deps,
    provider,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl(deps.config),
      ...(codeVerifier && { code_verifier: codeVerifier }),
    },
    deps.clock.now(),
  )
}

export function refreshTokens(
  deps: DepsWithoutDatabase,
  provider: ResolvedProvider,
  refreshToken: string,
): Promise<TokenSet> {
  return tokenRequest(
    deps,
    provider,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    deps.clock.now(),
  )
}

/** RFC 7009 revocation; best effort (the connection is deleted either way). */
export async function revokeToken(
  deps: DepsWithoutDatabase,
  provider: ResolvedProvider,
  token: string,
  hint: 'access_token' | 'refresh_token',
): Promise<boolean> {
  if (!provider.revocationUrl) return false
  const form = new URLSearchParams({ token, token_type_hint: hint })
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' })
  clientAuth(provider, form, headers)
  try {
    const res = await deps.fetch(provider.revocationUrl, {
      method: 'POST',
      headers,
      body: form.toString(),
      timeoutMs: TOKEN_TIMEOUT_MS,
      redirect: 'error',
    })
    return res.ok
  } catch {
    return false
  }
}

function pick(obj: unknown, path: string): string | null {
  let at: unknown = obj
  for (const key of path.split('.')) {
    if (!at || typeof at !== 'object') return null
    at = (at as Record<string, unknown>)[key]
  }
  if (typeof at === 'number') return String(at)
  return typeof at === 'string' && at.length > 0 ? at.slice(0, 200) : null
}

/**
 * The external account behind the tokens: from the token response where the provider puts it
 * there (Notion, Slack), otherwise from its API. Reconnecting the same account updates the
 * connection, so the id matters; without one the integration keeps a single connection.
 */
export async function lookupAccount(
  deps: DepsWithoutDatabase,
  provider: ResolvedProvider,
  tokens: TokenSet,
): Promise<{ id: string; name: string | null }> {
  const fromToken = provider.account.fromTokenResponse
  if (fromToken) {
    const id = pick(tokens.raw, fromToken.id)
    if (id) return { id, name: pick(tokens.raw, fromToken.name) }
  }
  const endpoint = provider.account.endpoint
  if (endpoint) {
    try {
      const res = await deps.fetch(new URL(endpoint.path, provider.apiBaseUrl), {
        method: endpoint.method ?? 'GET',
        headers: {
          authorization: `Bearer ${tokens.accessToken}`,
          accept: 'application/json',
          ...(endpoint.body && { 'content-type': 'application/json' }),
        },
        body: endpoint.body,
        timeoutMs: TOKEN_TIMEOUT_MS,
      })
      if (res.ok) {
        const body = await parseBody(res)
        const id = pick(body, endpoint.id)
        if (id) return { id, name: pick(body, endpoint.name) }
      } else {
        await res.body?.cancel()
      }
    } catch (err) {
      deps.logger.warn('oauth account lookup failed', { integration: provider.slug, error: String(err) })
    }
  }
  return { id: 'default', name: null }
}
