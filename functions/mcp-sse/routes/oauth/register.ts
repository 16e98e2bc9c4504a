import { answerOAuthError, noStore, oauthError, text } from '@functions/mcp-sse/oauth/oauth-http.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { registerClient } from '@shared/services/mcp-oauth/oauth-server.ts'

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

export const route = defineRoute(publicRoute, {
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

export const registerOAuthRegister = (app: App) => {
  app.on('POST', route.path, limitAnonymous())
  app.openapi(route, async (c) => {
    try {
      return c.json(await registerClient(c.var.deps, c.req.valid('json')), 201, noStore)
    } catch (err) {
      return answerOAuthError(c, err) as never
    }
  })
}
