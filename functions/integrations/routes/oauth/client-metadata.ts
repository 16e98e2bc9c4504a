import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { clientMetadataDocument } from '@shared/services/integrations/mcp-auth.ts'
import { clientMetadataSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/client-metadata.json',
  summary: "The platform's OAuth client ID metadata document",
  description:
    "The platform's OAuth client ID metadata document: its client_id at the authorization servers of OAuth-protected MCP servers that take such documents",
  responses: { 200: jsonContent(clientMetadataSchema, 'The document'), ...errorResponses(429) },
})

export function registerClientMetadata(app: App) {
  // A public route: each calling address is charged to the unauthenticated rate limit.
  app.use(route.path, limitAnonymous())
  return app.openapi(route, (c) =>
    c.json(clientMetadataDocument(c.var.deps.config), 200, { 'cache-control': 'public, max-age=3600' }),
  )
}
