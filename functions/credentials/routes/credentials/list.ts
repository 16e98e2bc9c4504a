import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { listCredentials } from '@shared/services/credentials/credentials.ts'
import { credentialListQuery, credentialListSchema } from '@shared/services/credentials/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/',
  summary: "List the tenant's credentials, newest first",
  request: { query: credentialListQuery },
  responses: {
    200: jsonContent(credentialListSchema, 'A page of credentials'),
    ...errorResponses(400, 401, 429),
  },
})

export type ListCredentialsResponse = z.infer<typeof credentialListSchema>

export const registerListCredentials = (app: App) =>
  app.openapi(route, async (c) => {
    const { cursor, ...query } = c.req.valid('query')
    return c.json(await listCredentials(serviceContext(c), { ...query, after: decodeCursor(cursor) }), 200)
  })
