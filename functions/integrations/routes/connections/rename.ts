import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { renameConnection } from '@shared/services/integrations/connections.ts'
import { connectionSchema, idParam, renameBody } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'patch',
  path: '/connections/{id}',
  summary: 'Rename a connection',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: renameBody } }, required: true },
  },
  responses: {
    200: { description: 'The connection', content: { 'application/json': { schema: connectionSchema } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerRenameConnection = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(
      await renameConnection(serviceContext(c), c.req.valid('param').id, c.req.valid('json').display_name),
      200,
    ),
  )
