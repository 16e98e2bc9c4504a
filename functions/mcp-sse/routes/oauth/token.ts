import { answerOAuthError, formOrJson, noStore, oauthError } from '@functions/mcp-sse/oauth/oauth-http.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { exchangeToken } from '@shared/services/mcp-oauth/oauth-server.ts'

const tokenSchema = z
  .object({
    access_token: z.string().openapi({ example: 'mcpat_...' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 3600 }),
    refresh_token: z.string().openapi({ example: 'mcprt_...' }),
    scope: z.string().openapi({ example: 'content:read content:write' }),
  })
  .openapi('OAuthTokens')

export const route = defineRoute(publicRoute, {
  method: 'post',
  path: '/oauth/token',
  summary: 'Token endpoint',
  description:
    'Token endpoint: authorization_code (with code_verifier) or refresh_token' +
    '\n\n' +
    'application/x-www-form-urlencoded (JSON accepted too): grant_type, client_id, and code + code_verifier + redirect_uri, or refresh_token; resource optional ({mcp_url}). Refresh tokens rotate; a used one presented again revokes the grant.',
  responses: {
    200: jsonContent(tokenSchema, 'Tokens'),
    400: oauthError('invalid_grant, invalid_request, unsupported_grant_type'),
    401: oauthError('invalid_client'),
    ...errorResponses(413, 429),
  },
})

export const registerOAuthToken = (app: App) => {
  app.on('POST', route.path, limitAnonymous())
  app.openapi(route, async (c) => {
    try {
      return c.json(await exchangeToken(c.var.deps, await formOrJson(c), mcpUrl(c)), 200, noStore) as never
    } catch (err) {
      return answerOAuthError(c, err) as never
    }
  })
}
