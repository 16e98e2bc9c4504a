import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listConnections } from '@shared/services/integrations/connections.ts'
import { connectionListSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/connections',
  summary: "The tenant's connections (never a token)",
  responses: {
    200: {
      description: 'Connections, oldest first',
      content: { 'application/json': { schema: connectionListSchema } },
    },
    ...errorResponses(401, 429),
  },
})

export const registerListConnections = (app: App) =>
  app.openapi(route, async (c) => c.json(await listConnections(serviceContext(c)), 200))
