import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { automationRunSchema } from '@shared/services/assistant/automation-schema.ts'
import { listAutomationRuns } from '@shared/services/assistant/automations.ts'

const runListSchema = z.object({ data: z.array(automationRunSchema) }).openapi('AutomationRunList')

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/automations/{id}/runs',
  summary: "An automation's runs",
  description: "An automation's runs, newest first, each with its conversation and turn status",
  request: { params: idParam },
  responses: { 200: jsonContent(runListSchema, 'Runs'), ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerListAutomationRuns = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await listAutomationRuns(serviceContext(c), c.req.valid('param').id), 200),
  )
