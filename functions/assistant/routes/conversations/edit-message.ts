import { turnEncoding } from '@functions/assistant/streams/respond.ts'
import { toolScopes } from '@functions/assistant/tool-scopes.ts'
import { streamDescription, turnAnswer } from '@functions/assistant/turn-answer.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { postMessageBody } from '@shared/services/assistant/schema.ts'
import { editLastMessage } from '@shared/services/assistant/turn/branch.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'

const params = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  message_id: z.uuid().openapi({ param: { name: 'message_id', in: 'path' } }),
})

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'put',
  path: '/conversations/{id}/messages/{message_id}',
  summary: 'Edit the last user message and run a turn on it',
  description:
    'Edit the last user message and run a turn on it (JSON, or streamed with Accept: text/event-stream)' +
    '\n\n' +
    [
      'Replaces the last user message with `content` and answers it as POST …/messages does. The earlier message and its answer are kept as an alternative (`alternatives` in GET …/conversations/{id}). A message that is not the last user message, or a turn still running, is 409.',
      '',
      streamDescription,
    ].join('\n'),
  request: {
    params,
    body: { content: { 'application/json': { schema: postMessageBody } }, required: true },
  },
  responses: {
    200: turnAnswer,
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429),
  },
})

export const registerEditMessage = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const { id, message_id } = c.req.valid('param')
    const { content } = c.req.valid('json')
    const started = await editLastMessage(ctx, id, message_id, content, {
      triggeredBy: 'assistant',
      scopes: toolScopes(c),
    })
    const out = turnEncoding(c)
    const events = await answerTurn(c.var.deps, ctx, {
      turnId: started.turn.id,
      jobId: started.job.id,
      answer: out.answer,
    })
    return (await out.respond(started.turn.id, events)) as never
  })
