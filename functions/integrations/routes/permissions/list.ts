import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listPermissions } from '@shared/services/integrations/connections.ts'
import { idParam, permissionListSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/connections/{id}/permissions',
  summary: "A connection's tool permissions",
  request: { params: idParam },
  responses: {
    200: { description: 'Permissions', content: { 'application/json': { schema: permissionListSchema } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerListPermissions = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await listPermissions(serviceContext(c), c.req.valid('param').id), 200),
  )
