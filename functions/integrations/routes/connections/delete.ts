import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { deleteConnection } from '@shared/services/integrations/connections.ts'
import { deletedSchema, idParam } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'delete',
  path: '/connections/{id}',
  summary: 'Delete a connection',
  description: 'Delete a connection (revoking its token at the provider where it offers revocation)',
  request: { params: idParam },
  responses: {
    200: {
      description: 'Deleted',
      content: { 'application/json': { schema: deletedSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerDeleteConnection = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await deleteConnection(serviceContext(c), c.req.valid('param').id), 200),
  )
