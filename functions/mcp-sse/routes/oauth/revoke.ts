import { answerOAuthError, formOrJson, oauthError } from '@functions/mcp-sse/oauth/oauth-http.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { OAuthError, revokeToken } from '@shared/services/mcp-oauth/oauth-server.ts'

export const route = defineRoute(publicRoute, {
  method: 'post',
  path: '/oauth/revoke',
  summary: 'Token revocation',
  description:
    'Token revocation (RFC 7009): the token’s grant ends on every instance at once' +
    '\n\n' +
    'Form or JSON: token, client_id. Always 200 for a well-formed request, known token or not.',
  responses: {
    200: { description: 'Revoked (or nothing to revoke)' },
    400: oauthError('No token'),
    ...errorResponses(429),
  },
})

export const registerOAuthRevoke = (app: App) => {
  app.on('POST', route.path, limitAnonymous())
  app.openapi(route, async (c) => {
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
