import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { deleteAutomation } from '@shared/services/assistant/automations.ts'

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'delete',
  path: '/automations/{id}',
  summary: 'Delete an automation (its runs go; their conversations stay)',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteAutomation = (app: App) =>
  app.openapi(route, async (c) => {
    await deleteAutomation(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
