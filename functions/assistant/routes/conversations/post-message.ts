import { streamFormatQuery, turnEncoding } from '@functions/assistant/streams/respond.ts'
import { toolScopes } from '@functions/assistant/tool-scopes.ts'
import { streamDescription } from '@functions/assistant/turn-answer.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { postMessageBody, turnResultSchema } from '@shared/services/assistant/schema.ts'
import { answerTurn, startTurn } from '@shared/services/assistant/turn/index.ts'

const eventStreamExample = [
  'id: 1\nevent: turn.started',
  'data: {"turn_id":"5b1c…","conversation_id":"9d2e…","message":{"id":"…","role":"user","content":"Post our newest draft title to #content","tool_calls":[],"turn_id":"5b1c…","created_at":"…"}}',
  '',
  'event: tool_call.started',
  'data: {"id":"1f0a…","name":"slack__post_message","tool":"slack:post_message","arguments":{"channel":"C0CONTENT1","text":"Spring menu"}}',
  '',
  'event: tool_call.completed',
  'data: {"id":"1f0a…","name":"slack__post_message","tool":"slack:post_message","status":"ok","result":"{\\"ok\\":true}"}',
  '',
  'event: text.delta',
  'data: {"text":"Posted "}',
  '',
  'event: usage',
  'data: {"input_tokens":412,"output_tokens":96,"turn":{"input_tokens":812,"output_tokens":140}}',
  '',
  'event: turn.ended',
  'data: {"turn":{…,"status":"completed"},"message":{…},"tool_calls":[…],"usage":{…},"quota":{"used":952,"limit":10000}}',
  '',
].join('\n')

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'post',
  path: '/conversations/{id}/messages',
  summary: 'Send a message',
  description:
    'Send a message: runs one assistant turn (JSON, or streamed with Accept: text/event-stream)' +
    '\n\n' +
    [
      "The model is the tenant's AI credential (Credentials, category AI: OpenAI-compatible or Anthropic); without one the answer is 422 naming the credential to add, and nothing is stored. The tools are those the tool server lists for the tenant, each call decided by the tenant's tool permissions. Tokens are metered against the Assistant API: past a Free quota 429 QUOTA_EXCEEDED before the provider is called; a turn in progress stops at its next model call once the quota is spent. A second message while a turn runs (or waits for approval) is 409 CONFLICT.",
      '',
      streamDescription,
    ].join('\n'),
  request: {
    params: idParam,
    query: streamFormatQuery,
    body: { content: { 'application/json': { schema: postMessageBody } }, required: true },
  },
  responses: {
    200: {
      description: 'The turn result (JSON), or its events (text/event-stream)',
      content: {
        'application/json': { schema: turnResultSchema },
        'text/event-stream': { schema: z.string().openapi({ example: eventStreamExample }) },
      },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429),
  },
})

export const registerPostMessage = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const { content } = c.req.valid('json')
    const id = c.req.valid('param').id
    const started = await startTurn(ctx, id, content, { triggeredBy: 'assistant', scopes: toolScopes(c) })
    const out = turnEncoding(c)
    const events = await answerTurn(c.var.deps, ctx, {
      turnId: started.turn.id,
      jobId: started.job.id,
      answer: out.answer,
    })
    return (await out.respond(started.turn.id, events)) as never
  })
