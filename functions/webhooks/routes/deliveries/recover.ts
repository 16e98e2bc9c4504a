import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { recoverFailedDeliveries } from '@shared/services/webhooks/recovery.ts'
import { recoverBody, recoverResultSchema } from '@shared/services/webhooks/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/recover',
  summary: 'Requeue every failed delivery of events created since a time',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: recoverBody } }, required: true },
  },
  responses: {
    202: jsonContent(recoverResultSchema, 'Queued'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type RecoverDeliveriesResponse = z.infer<typeof recoverResultSchema>

export const registerRecoverDeliveries = (app: App) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param')
    const since = new Date(c.req.valid('json').since)
    return c.json(await recoverFailedDeliveries(serviceContext(c), id, since), 202)
  })
