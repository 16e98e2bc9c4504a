import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { getConnection } from '@shared/services/integrations/connections.ts'
import { connectionDetailSchema, idParam } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/connections/{id}',
  summary: 'One connection with its tools',
  request: { params: idParam },
  responses: {
    200: {
      description: 'The connection',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerGetConnection = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getConnection(serviceContext(c), c.req.valid('param').id), 200),
  )
