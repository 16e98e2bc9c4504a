import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { keyRequests, keyRequestsSchema } from '@shared/services/api-keys/request-log.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}/requests',
  summary: "One key's latest requests and its last 24 hours by the hour",
  description: "One key's latest requests and its last 24 hours by the hour (from the request log)",
  request: { params: idParam },
  responses: {
    200: jsonContent(keyRequestsSchema, "The key's recent requests and hourly counts"),
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerKeyRequests = (app: App) =>
  app.openapi(route, async (c) => c.json(await keyRequests(serviceContext(c), c.req.valid('param').id), 200))
