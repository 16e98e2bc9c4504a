import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { automationSchema } from '@shared/services/assistant/automation-schema.ts'
import { listAutomations } from '@shared/services/assistant/automations.ts'

const listSchema = z.object({ data: z.array(automationSchema) }).openapi('AutomationList')

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/automations',
  summary: "The tenant's automations with their last and next run",
  responses: { 200: jsonContent(listSchema, 'Automations'), ...errorResponses(401, 403, 429) },
})

export const registerListAutomations = (app: App) =>
  app.openapi(route, async (c) => c.json(await listAutomations(serviceContext(c)), 200))
