import { turnEncoding } from '@functions/assistant/streams/respond.ts'
import { toolScopes } from '@functions/assistant/tool-scopes.ts'
import { streamDescription, turnAnswer } from '@functions/assistant/turn-answer.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { regenerateLast } from '@shared/services/assistant/turn/branch.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'post',
  path: '/conversations/{id}/regenerate',
  summary: 'Answer the last user message again',
  description:
    'Answer the last user message again (JSON, or streamed with Accept: text/event-stream)' +
    '\n\n' +
    [
      "Runs a turn exactly as POST …/messages does, answering the conversation's last user message again. The earlier answer is kept as an alternative (`alternatives` in GET …/conversations/{id}), not overwritten. A conversation without an answer yet, or with a turn still running, is 409.",
      '',
      streamDescription,
    ].join('\n'),
  request: { params: idParam },
  responses: {
    200: turnAnswer,
    ...errorResponses(400, 401, 403, 404, 409, 422, 429),
  },
})

export const registerRegenerate = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const id = c.req.valid('param').id
    const started = await regenerateLast(ctx, id, { triggeredBy: 'assistant', scopes: toolScopes(c) })
    const out = turnEncoding(c)
    const events = await answerTurn(c.var.deps, ctx, {
      turnId: started.turn.id,
      jobId: started.job.id,
      answer: out.answer,
    })
    return (await out.respond(started.turn.id, events)) as never
  })
