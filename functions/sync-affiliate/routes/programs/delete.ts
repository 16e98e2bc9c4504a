import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { deleteProgram } from '@shared/services/affiliate/destinations.ts'

const params = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  program_id: z.uuid().openapi({ param: { name: 'program_id', in: 'path' } }),
})

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'delete',
  path: '/destinations/{id}/programs/{program_id}',
  summary: 'Detach a program; its products go with it',
  request: { params },
  responses: { 204: { description: 'Detached' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerDeleteProgram = (app: App) =>
  app.openapi(route, async (c) => {
    const { id, program_id } = c.req.valid('param')
    await deleteProgram(serviceContext(c), id, program_id)
    return c.body(null, 204)
  })
