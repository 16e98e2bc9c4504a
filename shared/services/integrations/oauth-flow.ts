import { requireRole } from '@shared/infra/caller.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { integrationBySlug, resolveProviders } from './catalog.ts'
import { completeMcpAuthorization } from './mcp-oauth-connect.ts'
import {
  authorizationErrorCode,
  beginAuthorization,
  callbackUrl,
  consumeState,
  exchangeCode,
  lookupAccount,
  STATE_TTL_MS,
  TokenEndpointError,
  vaultPurposes,
} from './oauth.ts'
import { checkResponseIssuer } from './oauth-issuer.ts'

/** The OAuth connection flow: start (tenant owner/admin), and the provider's callback (public). */

export async function startAuthorization(
  ctx: ServiceContext,
  slug: string,
): Promise<{
  authorization_url: string
  expires_at: string
  /** For the HttpOnly cookie that binds the flow to this browser (the route sets it). */
  binding: { cookieName: string; value: string; path: string; maxAgeSeconds: number; secure: boolean }
}> {
  const entry = integrationBySlug(slug)
  const provider = resolveProviders(ctx.config).get(slug)
  if (!entry || !provider) throw notFound('OAuth integration')
  requireRole(ctx.caller, ['owner', 'admin'])
  if (!provider.clientId || !provider.clientSecret) {
    throw new ServiceError(
      'UNPROCESSABLE',
      `${entry.name} is not configured on this deployment (${provider.clientIdEnv})`,
    )
  }
  const { url, expiresAt, binding } = await beginAuthorization(
    ctx,
    { ...provider, clientId: provider.clientId },
    ctx.caller,
  )
  const callback = new URL(callbackUrl(ctx.config))
  return {
    authorization_url: url,
    expires_at: expiresAt.toISOString(),
    binding: {
      ...binding,
      path: callback.pathname,
      maxAgeSeconds: STATE_TTL_MS / 1000,
      secure: callback.protocol === 'https:',
    },
  }
}

/**
 * Completes the flow from the provider's redirect; the answer is the query string for the
 * dashboard (status connected or error). Runs with the service connection: the caller is the
 * signed state, not a session.
 */
export async function completeAuthorization(
  deps: FunctionDeps,
  query: { state: string; code?: string; error?: string; iss?: string },
  /** The value of the state's binding cookie in the browser that came back, if it sent one. */
  browserBinding: string | undefined,
): Promise<Record<string, string>> {
  const now = deps.clock.now()
  const fail = (integration: string | null, error: string, description: string) => ({
    status: 'error',
    ...(integration && { integration }),
    error,
    error_description: description,
  })

  // The state is consumed first, whatever the outcome: a denied or failed attempt cannot be replayed.
  const state = await consumeState(deps.sql, query.state, browserBinding, now)
  if (!state)
    return fail(
      null,
      'invalid_state',
      'The authorization request is unknown, expired, was already used or was started in another browser.',
    )
  if (state.mcp_flow_encrypted)
    return completeMcpAuthorization(
      deps,
      { ...state, mcp_flow_encrypted: state.mcp_flow_encrypted },
      query,
      fail,
    )
  const slug = state.integration_slug
  const provider = resolveProviders(deps.config).get(slug)
  if (!provider?.clientId) return fail(slug, 'integration_unavailable', 'The integration is not configured.')
  // Before anything in the response is believed (its error or its code): it must come from the
  // server the flow started with.
  const issuer = await checkResponseIssuer(deps, provider, query.iss)
  if (issuer !== 'ok') {
    deps.logger.warn('oauth authorization response from an unexpected issuer', {
      integration: slug,
      tenant_id: state.tenant_id,
      reason: issuer,
    })
    return fail(
      slug,
      issuer,
      issuer === 'issuer_missing'
        ? 'The provider did not say which authorization server answered, though it announces that it does.'
        : 'The authorization response came from another authorization server than the one the flow started with.',
    )
  }
  if (query.error) {
    const code = authorizationErrorCode(query.error)
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
  // A new connection's write tools (post a message, send an e-mail, create an issue) wait for a
  // person's approval when the assistant calls them; a reconnection keeps the tenant's choices.
  const writeTools = (integrationBySlug(slug)?.tools ?? [])
    .filter((t) => t.action === 'write')
    .map((t) => t.name)
  if (writeTools.length > 0)
    await deps.sql`
      insert into public.integration_tool_permissions
        (tenant_id, connection_id, tool_name, allowed, requires_approval, created_by, created_at, updated_at)
      select ${state.tenant_id}, ${row.id}, name, true, true, ${state.user_id}, ${now}, ${now}
      from unnest(${writeTools}::text[]) as name
      on conflict (connection_id, tool_name) do nothing`
  return { status: 'connected', integration: slug, connection_id: row.id }
}
