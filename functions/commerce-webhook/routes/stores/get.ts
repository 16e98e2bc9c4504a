import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { storeSchema } from '@shared/services/commerce/schema.ts'
import { getStore } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/stores/{id}',
  summary: 'Get one store',
  request: { params: idParam },
  responses: { 200: jsonContent(storeSchema, 'The store'), ...errorResponses(400, 401, 404, 429) },
})

export const registerGetStore = (app: App) =>
  app.openapi(route, async (c) => c.json(await getStore(serviceContext(c), c.req.valid('param').id), 200))
