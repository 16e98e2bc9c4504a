import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { type Alert, createAlert } from '@shared/services/usage/alerts.ts'
import { alertSchema, createAlertBody } from '@shared/services/usage/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/alerts',
  summary: 'Add a usage alert',
  description:
    'Add a usage alert (owners and admins): an e-mail once per month when usage reaches the threshold',
  request: { body: { content: { 'application/json': { schema: createAlertBody } }, required: true } },
  responses: { 201: jsonContent(alertSchema, 'Created'), ...errorResponses(400, 401, 403, 409, 413, 429) },
})

export type CreateAlertResponse = Alert

export const registerCreateAlert = (app: App) =>
  app.openapi(route, async (c) => c.json(await createAlert(serviceContext(c), c.req.valid('json')), 201))
