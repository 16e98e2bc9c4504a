import {
  METADATA_DESCRIPTION,
  metadataCache,
  metadataResponses,
  serverMetadata,
} from '@functions/mcp-sse/oauth/server-metadata.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/.well-known/oauth-authorization-server',
  summary: 'OAuth authorization server metadata (RFC 8414)',
  description: `${METADATA_DESCRIPTION} Also at /.well-known/oauth-authorization-server/mcp on the local platform.`,
  responses: metadataResponses,
})

export const registerAuthorizationServerMetadata = (app: App) => {
  app.on('GET', route.path, limitAnonymous())
  app.openapi(route, (c) => c.json(serverMetadata(c), 200, metadataCache))
}
