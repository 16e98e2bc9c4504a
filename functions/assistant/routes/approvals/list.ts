import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { approvalListSchema, approvalQuery } from '@shared/services/assistant/approval-schema.ts'
import { listApprovals } from '@shared/services/assistant/approvals.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/approvals',
  summary: 'The approvals inbox',
  description:
    'The approvals inbox: tool calls that wait (or waited) for approval, newest first' +
    '\n\n' +
    'Across conversations and automations, each with its tool, arguments, what asked and when it expires. Owners and admins see every one of the tenant; members those of their own conversations. Keyset pages.',
  request: { query: approvalQuery },
  responses: {
    200: jsonContent(approvalListSchema, 'A page of approvals'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListApprovals = (app: App) =>
  app.openapi(route, async (c) => {
    const { status, limit, cursor } = c.req.valid('query')
    return c.json(await listApprovals(serviceContext(c), status, { limit, after: decodeCursor(cursor) }), 200)
  })
