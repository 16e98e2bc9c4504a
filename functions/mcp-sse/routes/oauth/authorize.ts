import { consentUrl } from '@functions/mcp-sse/oauth/consent-url.ts'
import { noStore, oauthError, text } from '@functions/mcp-sse/oauth/oauth-http.ts'
import { toolScopes } from '@functions/mcp-sse/oauth/scopes.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { startAuthorization } from '@shared/services/mcp-oauth/oauth-server.ts'

const authorizeQuery = z
  .object({
    response_type: text(50).optional(),
    client_id: text(2000).optional(),
    redirect_uri: text(2000).optional(),
    code_challenge: text(200).optional(),
    code_challenge_method: text(20).optional(),
    state: text(1000).optional(),
    scope: text(500).optional(),
    resource: text(2000).optional(),
  })
  // OAuth 2.1 (section 4.1.1): the authorization server ignores parameters it does not know
  // (clients send prompt, nonce, ...), so this query, unlike the API's, is not strict.
  .loose()

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/oauth/authorize',
  summary: 'OAuth authorization request',
  description:
    'Authorization request: to the dashboard sign-in and consent page' +
    '\n\n' +
    "PKCE S256 is required; resource, when given, must be {mcp_url}; scope is a space-separated subset of content:read content:write (both when omitted). A good request redirects to the dashboard's consent page; an unknown client or unregistered redirect_uri is a 400 page; any other fault goes back to the redirect_uri with an OAuth error.",
  request: { query: authorizeQuery },
  responses: {
    302: { description: 'To the consent page, or back to the client with an error' },
    400: oauthError('Unknown client or redirect URI (answered here, not redirected)'),
    ...errorResponses(429),
  },
})

export const registerOAuthAuthorize = (app: App) => {
  app.on('GET', route.path, limitAnonymous())
  app.openapi(route, async (c) => {
    const outcome = await startAuthorization(c.var.deps, c.req.valid('query'), mcpUrl(c), toolScopes)
    // Not redirected: the address is not one the client registered.
    if ('fatal' in outcome)
      return c.json({ error: 'invalid_request', error_description: outcome.fatal }, 400, noStore) as never
    if ('redirect' in outcome) return c.redirect(outcome.redirect, 302) as never
    return c.redirect(consentUrl(c, outcome.requestId), 302) as never
  })
}
