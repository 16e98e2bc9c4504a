import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { listCredentialUsage } from '@shared/services/credentials/credential-usage.ts'
import { usageListSchema } from '@shared/services/credentials/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}/usage',
  summary: 'Usage history of a credential',
  description: 'Usage history of a credential: which server code used it and when, newest first',
  request: { params: idParam, query: pageQuery },
  responses: {
    200: jsonContent(usageListSchema, 'A page of usage records'),
    ...errorResponses(400, 401, 404, 429),
  },
})

export type ListCredentialUsageResponse = z.infer<typeof usageListSchema>

export const registerListCredentialUsage = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    const page = { limit, after: decodeCursor(cursor) }
    return c.json(await listCredentialUsage(serviceContext(c), c.req.valid('param').id, page), 200)
  })
