import { streamFormatQuery, turnEncoding } from '@functions/assistant/streams/respond.ts'
import { streamDescription } from '@functions/assistant/turn-answer.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { approvalBody, turnResultSchema } from '@shared/services/assistant/schema.ts'
import { answerTurn, decideApproval } from '@shared/services/assistant/turn/index.ts'

const params = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  call_id: z.uuid().openapi({ param: { name: 'call_id', in: 'path' } }),
})

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'post',
  path: '/conversations/{id}/approvals/{call_id}',
  summary: 'Approve or deny a tool call that waits for approval',
  description:
    'Approve or deny a tool call that waits for approval; the turn then resumes' +
    '\n\n' +
    [
      'Owners and admins (a key acts as its creator). When the last waiting call of the turn is decided, the turn resumes here (on whichever instance this request reached): approved calls run, denied ones are reported to the model as denied. A call that is not waiting is 409.',
      '',
      streamDescription,
    ].join('\n'),
  request: {
    params,
    query: streamFormatQuery,
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

export const registerApproveToolCall = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const { id, call_id } = c.req.valid('param')
    const decided = await decideApproval(ctx, id, call_id, c.req.valid('json'))
    const out = turnEncoding(c)
    const events = await answerTurn(c.var.deps, ctx, {
      turnId: decided.turnId,
      jobId: decided.job?.id ?? null,
      answer: out.answer,
    })
    return (await out.respond(decided.turnId, events)) as never
  })
