import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { decideApprovalById } from '@shared/services/assistant/approvals.ts'
import { approvalBody, turnResultSchema } from '@shared/services/assistant/schema.ts'
import { streamDescription } from '../conversations/post-message.ts'
import { answerTurn } from '../turn-response.ts'

const params = z.object({ call_id: z.uuid().openapi({ param: { name: 'call_id', in: 'path' } }) })

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'post',
  path: '/approvals/{call_id}',
  summary: 'Approve or deny a waiting tool call from the inbox; the turn then resumes',
  description: [
    'As POST /conversations/{id}/approvals/{call_id}, by the call alone. A call that is not waiting (decided or expired) is 409.',
    '',
    streamDescription,
  ].join('\n'),
  request: {
    params,
    body: { content: { 'application/json': { schema: approvalBody } }, required: true },
  },
  responses: {
    200: {
      description: 'The turn result (JSON), or its events (text/event-stream)',
      content: {
        'application/json': { schema: turnResultSchema },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerDecideApproval = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const decided = await decideApprovalById(ctx, c.req.valid('param').call_id, c.req.valid('json'))
    return answerTurn(c, ctx, decided.turnId, decided.job?.id ?? null) as never
  })
