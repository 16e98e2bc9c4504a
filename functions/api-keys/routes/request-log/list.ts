import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { decodeBigintCursor } from '@shared/infra/pagination.ts'
import {
  listRequestLog,
  requestLogPageSchema,
  requestLogQuery,
} from '@shared/services/api-keys/request-log.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/request-log',
  summary: "The tenant's API requests",
  description:
    "The tenant's API requests, newest first, by key, status and path (owners and admins: all; a member: their own). Written within a second of the answer, kept REQUEST_LOG_RETENTION_DAYS (30 by default)",
  request: { query: requestLogQuery },
  responses: {
    200: jsonContent(requestLogPageSchema, 'A page of requests, newest first'),
    ...errorResponses(400, 401, 429),
  },
})

export const registerListRequestLog = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, key_id, status, path } = c.req.valid('query')
    return c.json(
      await listRequestLog(
        serviceContext(c),
        { keyId: key_id, status, path },
        { limit, after: decodeBigintCursor(cursor) },
      ),
      200,
    )
  })
