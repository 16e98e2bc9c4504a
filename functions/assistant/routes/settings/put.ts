import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { settingsBody, settingsSchema } from '@shared/services/assistant/schema.ts'
import { updateSettings } from '@shared/services/assistant/settings.ts'

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'put',
  path: '/settings',
  summary: `Choose the assistant's provider and model`,
  description: `Choose the assistant's provider and model (owners and admins)`,
  request: { body: { content: { 'application/json': { schema: settingsBody } }, required: true } },
  responses: { 200: jsonContent(settingsSchema, 'The settings'), ...errorResponses(400, 401, 403, 413, 429) },
})

export const registerPutSettings = (app: App) =>
  app.openapi(route, async (c) => c.json(await updateSettings(serviceContext(c), c.req.valid('json')), 200))
