import { toolScopes } from '@functions/mcp-sse/oauth/scopes.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

const metadataSchema = z
  .object({
    resource: z.string().url().openapi({ example: 'http://127.0.0.1:54321/mcp' }),
    authorization_servers: z.array(z.string().url()).openapi({ example: ['http://127.0.0.1:54321/mcp'] }),
    scopes_supported: z.array(z.string()).openapi({ example: ['content:read', 'content:write'] }),
    bearer_methods_supported: z.array(z.string()).openapi({ example: ['header'] }),
    resource_name: z.string(),
    resource_documentation: z.string().url().optional(),
  })
  .openapi('ProtectedResourceMetadata')

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/.well-known/oauth-protected-resource',
  summary: 'OAuth protected resource metadata (RFC 9728) of {mcp_url}',
  description:
    'Named by the WWW-Authenticate header of every 401 from the tool server; also served at /.well-known/oauth-protected-resource/mcp on the local platform. The authorization server is the tool server itself (its metadata at {mcp_url}/.well-known/oauth-authorization-server).',
  responses: { 200: jsonContent(metadataSchema, 'The metadata'), ...errorResponses(429) },
})

export const registerProtectedResourceMetadata = (app: App) => {
  app.on('GET', route.path, limitAnonymous())
  app.openapi(route, (c) => {
    const resource = mcpUrl(c)
    return c.json(
      {
        resource,
        authorization_servers: [resource],
        scopes_supported: [...toolScopes],
        bearer_methods_supported: ['header'],
        resource_name: 'Tenant Platform tool server',
      },
      200,
      { 'cache-control': 'public, max-age=300' },
    )
  })
}
