import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { storeListSchema } from '@shared/services/commerce/schema.ts'
import { listStores } from '@shared/services/commerce/stores.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/stores',
  summary: "List the tenant's stores, newest first",
  request: { query: pageQuery },
  responses: { 200: jsonContent(storeListSchema, 'A page of stores'), ...errorResponses(400, 401, 429) },
})

export const registerListStores = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(await listStores(serviceContext(c), { limit, after: decodeCursor(cursor) }), 200)
  })
