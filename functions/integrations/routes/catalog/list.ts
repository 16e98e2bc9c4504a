import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { publicCatalog } from '@shared/services/integrations/catalog.ts'
import { catalogSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/',
  summary: 'The integrations catalog',
  description: 'The integrations catalog: OAuth providers and MCP integration types, by category',
  responses: {
    200: { description: 'The catalog', content: { 'application/json': { schema: catalogSchema } } },
    ...errorResponses(401, 429),
  },
})

export const registerListCatalog = (app: App) =>
  app.openapi(route, (c) => c.json(publicCatalog(c.var.deps.config), 200))
