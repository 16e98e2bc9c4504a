import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { settingsSchema } from '@shared/services/assistant/schema.ts'
import { getSettings } from '@shared/services/assistant/settings.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/settings',
  summary: `The assistant's model settings`,
  description: `The assistant's model: provider, model, credential environment, and what the next turn will use`,
  responses: { 200: jsonContent(settingsSchema, 'The settings'), ...errorResponses(401, 403, 429) },
})

export const registerGetSettings = (app: App) =>
  app.openapi(route, async (c) => c.json(await getSettings(serviceContext(c)), 200))
