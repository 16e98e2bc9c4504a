import { toolScopes } from '@functions/mcp-sse/oauth/scopes.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App, AppEnv } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import type { Context } from 'hono'

const metadataSchema = z
  .object({
    issuer: z.string().url().openapi({ example: 'http://127.0.0.1:54321/mcp' }),
    authorization_endpoint: z.string().url(),
    token_endpoint: z.string().url(),
    registration_endpoint: z.string().url(),
    revocation_endpoint: z.string().url(),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    client_id_metadata_document_supported: z.boolean().openapi({
      description: 'A client_id may be the https URL of the client’s metadata document',
    }),
  })
  .openapi('AuthorizationServerMetadata')

function metadata(c: Context<AppEnv>) {
  const issuer = mcpUrl(c)
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...toolScopes],
    client_id_metadata_document_supported: true,
  }
}

const describe = (path: string, summary: string) =>
  defineRoute(publicRoute, {
    method: 'get',
    path,
    summary,
    description:
      'The tool server is its own OAuth 2.1 authorization server for MCP clients (issuer {mcp_url}): dynamic client registration or client ID metadata documents, PKCE S256, resource indicators, refresh and revocation. Also at /.well-known/oauth-authorization-server/mcp on the local platform.',
    responses: { 200: jsonContent(metadataSchema, 'The metadata'), ...errorResponses(429) },
  })

export const route = describe(
  '/.well-known/oauth-authorization-server',
  'OAuth authorization server metadata (RFC 8414)',
)
export const oidcRoute = describe(
  '/.well-known/openid-configuration',
  'The same metadata where clients look for OpenID configuration (a path-appended issuer)',
)

export type AuthorizationServerMetadata = z.infer<typeof metadataSchema>

export const registerAuthorizationServerMetadata = (app: App) => {
  for (const r of [route, oidcRoute]) {
    app.on('GET', r.path, limitAnonymous())
    app.openapi(r, (c) => c.json(metadata(c), 200, { 'cache-control': 'public, max-age=300' }))
  }
}
