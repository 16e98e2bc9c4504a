import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listApiKeys } from '@shared/services/api-keys/api-keys.ts'
import { apiKeyListSchema } from '@shared/services/api-keys/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/',
  summary: "List the tenant's API keys (never a secret)",
  request: { query: pageQuery },
  responses: {
    200: jsonContent(apiKeyListSchema, 'A page of keys, newest first'),
    ...errorResponses(400, 401, 429),
  },
})

export const registerListApiKeys = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    return c.json(await listApiKeys(serviceContext(c), { limit, after: decodeCursor(cursor) }), 200)
  })
