import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { rediscoverTools } from '@shared/services/integrations/connections.ts'
import { connectionDetailSchema, idParam } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'post',
  path: '/connections/{id}/discover',
  summary: "Discover an MCP connection's tools again",
  request: { params: idParam },
  responses: {
    200: {
      description: 'The connection with its tools',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 422, 429),
  },
})

export const registerRediscover = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await rediscoverTools(serviceContext(c), c.req.valid('param').id), 200),
  )
