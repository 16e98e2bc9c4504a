import { turnEncoding } from '@functions/assistant/streams/respond.ts'
import { streamDescription } from '@functions/assistant/turn-answer.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { decideApprovalById } from '@shared/services/assistant/approvals.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'
import { route as byConversation } from '../conversations/approve.ts'

const params = z.object({ call_id: z.uuid().openapi({ param: { name: 'call_id', in: 'path' } }) })

export const route = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'post',
  path: '/approvals/{call_id}',
  summary: 'Approve or deny a waiting tool call from the inbox',
  description:
    'Approve or deny a waiting tool call from the inbox; the turn then resumes' +
    '\n\n' +
    [
      'As POST /conversations/{id}/approvals/{call_id}, by the call alone. A call that is not waiting (decided or expired) is 409.',
      '',
      streamDescription,
    ].join('\n'),
  request: { params, body: byConversation.request.body },
  responses: byConversation.responses,
})

export const registerDecideApproval = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const decided = await decideApprovalById(ctx, c.req.valid('param').call_id, c.req.valid('json'))
    const out = turnEncoding(c)
    const events = await answerTurn(c.var.deps, ctx, {
      turnId: decided.turnId,
      jobId: decided.job?.id ?? null,
      answer: out.answer,
    })
    return (await out.respond(decided.turnId, events)) as never
  })
