import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { automationPatchBody, automationSchema } from '@shared/services/assistant/automation-schema.ts'
import { updateAutomation } from '@shared/services/assistant/automations.ts'

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'patch',
  path: '/automations/{id}',
  summary: 'Change, pause (enabled: false) or resume an automation',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: automationPatchBody } }, required: true },
  },
  responses: {
    200: jsonContent(automationSchema, 'The automation'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerUpdateAutomation = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateAutomation(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
