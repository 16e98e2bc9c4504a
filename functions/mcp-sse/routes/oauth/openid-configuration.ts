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
  path: '/.well-known/openid-configuration',
  summary: 'OAuth metadata as OpenID configuration',
  description: `${METADATA_DESCRIPTION} The same document as the RFC 8414 metadata, where clients that append the issuer’s path look for OpenID configuration.`,
  responses: metadataResponses,
})

export const registerOpenIdConfiguration = (app: App) => {
  app.on('GET', route.path, limitAnonymous())
  app.openapi(route, (c) => c.json(serverMetadata(c), 200, metadataCache))
}
