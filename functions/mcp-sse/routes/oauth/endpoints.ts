import { consentUrl } from '@functions/mcp-sse/oauth/consent-url.ts'
import { toolScopes } from '@functions/mcp-sse/oauth/scopes.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App, AppEnv } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import {
  exchangeToken,
  OAuthError,
  registerClient,
  revokeToken,
  startAuthorization,
} from '@shared/services/mcp-oauth/oauth-server.ts'
import type { Context } from 'hono'

/**
 * The OAuth endpoints MCP clients call (RFC 6749/7591/7009 with PKCE and RFC 8707). They answer
 * with OAuth's error shape ({error, error_description}), which clients read, not the platform's.
 */

const oauthErrorSchema = z
  .object({ error: z.string().openapi({ example: 'invalid_grant' }), error_description: z.string() })
  .openapi('OAuthError')
const oauthError = (description: string) => ({
  description,
  content: { 'application/json': { schema: oauthErrorSchema } },
})
const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' }

function answerOAuthError(c: Context<AppEnv>, err: unknown): Response {
  if (err instanceof OAuthError) return c.json(err.body(), err.status as 400, noStore)
  throw err
}

const text = (max: number) => z.string().max(max)
const registrationBody = z.object({
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(10),
  client_name: text(200).optional(),
  grant_types: z.array(text(100)).max(5).optional(),
  response_types: z.array(text(100)).max(5).optional(),
  token_endpoint_auth_method: text(100).optional(),
})
const registrationSchema = z
  .object({
    client_id: z.string().openapi({ example: 'mcpc_3hT9...' }),
    client_id_issued_at: z.number().int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
  })
  .openapi('OAuthClientRegistration')

export const registerRoute = defineRoute(publicRoute, {
  method: 'post',
  path: '/oauth/register',
  summary: 'Dynamic client registration (RFC 7591): public clients only',
  description:
    'redirect_uris must be https, http on a loopback address, or a private-use scheme (cursor://, vscode://). Answers RFC 7591 errors (invalid_redirect_uri, invalid_client_metadata).',
  request: {
    body: {
      content: {
        'application/json': {
          schema: registrationBody.openapi({
            example: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] },
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    201: jsonContent(registrationSchema, 'Registered'),
    400: oauthError('Refused metadata'),
    ...errorResponses(413, 429),
  },
})

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

export const authorizeRoute = defineRoute(publicRoute, {
  method: 'get',
  path: '/oauth/authorize',
  summary: 'Authorization request: to the dashboard sign-in and consent page',
  description:
    "PKCE S256 is required; resource, when given, must be {mcp_url}; scope is a space-separated subset of content:read content:write (both when omitted). A good request redirects to the dashboard's consent page; an unknown client or unregistered redirect_uri is a 400 page; any other fault goes back to the redirect_uri with an OAuth error.",
  request: { query: authorizeQuery },
  responses: {
    302: { description: 'To the consent page, or back to the client with an error' },
    400: oauthError('Unknown client or redirect URI (answered here, not redirected)'),
    ...errorResponses(429),
  },
})

const tokenSchema = z
  .object({
    access_token: z.string().openapi({ example: 'mcpat_...' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 3600 }),
    refresh_token: z.string().openapi({ example: 'mcprt_...' }),
    scope: z.string().openapi({ example: 'content:read content:write' }),
  })
  .openapi('OAuthTokens')

export const tokenRoute = defineRoute(publicRoute, {
  method: 'post',
  path: '/oauth/token',
  summary: 'Token endpoint: authorization_code (with code_verifier) or refresh_token',
  description:
    'application/x-www-form-urlencoded (JSON accepted too): grant_type, client_id, and code + code_verifier + redirect_uri, or refresh_token; resource optional ({mcp_url}). Refresh tokens rotate; a used one presented again revokes the grant.',
  responses: {
    200: jsonContent(tokenSchema, 'Tokens'),
    400: oauthError('invalid_grant, invalid_request, unsupported_grant_type'),
    401: oauthError('invalid_client'),
    ...errorResponses(413, 429),
  },
})

export const revokeRoute = defineRoute(publicRoute, {
  method: 'post',
  path: '/oauth/revoke',
  summary: 'Token revocation (RFC 7009): the token’s grant ends on every instance at once',
  description: 'Form or JSON: token, client_id. Always 200 for a well-formed request, known token or not.',
  responses: {
    200: { description: 'Revoked (or nothing to revoke)' },
    400: oauthError('No token'),
    ...errorResponses(429),
  },
})

const tokenParams = z.object({
  grant_type: text(100).optional(),
  code: text(200).optional(),
  redirect_uri: text(2000).optional(),
  client_id: text(2000).optional(),
  code_verifier: z.string().min(43).max(128).optional(),
  refresh_token: text(200).optional(),
  resource: text(2000).optional(),
  token: text(200).optional(),
  token_type_hint: text(50).optional(),
})

async function formOrJson(c: Context<AppEnv>): Promise<z.infer<typeof tokenParams>> {
  const type = c.req.header('content-type') ?? ''
  const raw = /json/i.test(type)
    ? await c.req.json().catch(() => null)
    : Object.fromEntries(new URLSearchParams(await c.req.text()))
  const parsed = tokenParams.safeParse(raw ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new OAuthError('invalid_request', `${issue.path.join('.') || 'body'}: ${issue.message}`)
  }
  return parsed.data
}

export const registerOAuthEndpoints = (app: App) => {
  for (const r of [registerRoute, authorizeRoute, tokenRoute, revokeRoute])
    app.on(r.method.toUpperCase(), r.path, limitAnonymous())

  app.openapi(registerRoute, async (c) => {
    try {
      return c.json(await registerClient(c.var.deps, c.req.valid('json')), 201, noStore)
    } catch (err) {
      return answerOAuthError(c, err) as never
    }
  })

  app.openapi(authorizeRoute, async (c) => {
    const outcome = await startAuthorization(c.var.deps, c.req.valid('query'), mcpUrl(c), toolScopes)
    // Not redirected: the address is not one the client registered.
    if ('fatal' in outcome)
      return c.json({ error: 'invalid_request', error_description: outcome.fatal }, 400, noStore) as never
    if ('redirect' in outcome) return c.redirect(outcome.redirect, 302) as never
    return c.redirect(consentUrl(c, outcome.requestId), 302) as never
  })

  app.openapi(tokenRoute, async (c) => {
    try {
      return c.json(await exchangeToken(c.var.deps, await formOrJson(c), mcpUrl(c)), 200, noStore) as never
    } catch (err) {
      return answerOAuthError(c, err) as never
    }
  })

  app.openapi(revokeRoute, async (c) => {
    try {
      const params = await formOrJson(c)
      if (!params.token) throw new OAuthError('invalid_request', 'token is required')
      await revokeToken(c.var.deps, params.token, params.client_id)
      return c.body(null, 200) as never
    } catch (err) {
      return answerOAuthError(c, err) as never
    }
  })
}
