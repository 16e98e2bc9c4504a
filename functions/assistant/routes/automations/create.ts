import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { automationBody, automationSchema } from '@shared/services/assistant/automation-schema.ts'
import { createAutomation } from '@shared/services/assistant/automations.ts'

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'post',
  path: '/automations',
  summary: 'Save an instruction the assistant runs on a schedule',
  description:
    'Save an instruction the assistant runs on a schedule (owners and admins)' +
    '\n\n' +
    'Each run is an assistant turn in a conversation of its own, as the member who saved it, with triggered_by = automation in the usage log. A tool that needs approval is not run unattended: the turn waits for an owner or admin.',
  request: { body: { content: { 'application/json': { schema: automationBody } }, required: true } },
  responses: {
    201: jsonContent(automationSchema, 'The automation'),
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

export const registerCreateAutomation = (app: App) =>
  app.openapi(route, async (c) => c.json(await createAutomation(serviceContext(c), c.req.valid('json')), 201))
