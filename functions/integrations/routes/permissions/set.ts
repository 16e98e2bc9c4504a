import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { setPermission } from '@shared/services/integrations/connections.ts'
import { idParam, permissionBody, permissionSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'post',
  path: '/connections/{id}/permissions',
  summary: 'Allow or disable a tool on a connection',
  description: 'Allow or disable a tool on a connection, with optional restrictions',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: permissionBody } }, required: true },
  },
  responses: {
    200: { description: 'Updated', content: { 'application/json': { schema: permissionSchema } } },
    201: { description: 'Created', content: { 'application/json': { schema: permissionSchema } } },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerSetPermission = (app: App) =>
  app.openapi(route, async (c) => {
    const { permission, created } = await setPermission(
      serviceContext(c),
      c.req.valid('param').id,
      c.req.valid('json'),
    )
    return c.json(permission, created ? 201 : 200)
  })
