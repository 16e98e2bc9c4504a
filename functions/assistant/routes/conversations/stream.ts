import { streamFormatQuery, turnEncoding } from '@functions/assistant/streams/respond.ts'
import { streamDescription } from '@functions/assistant/turn-answer.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'

const params = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  turn_id: z.uuid().openapi({ param: { name: 'turn_id', in: 'path' } }),
})

const eventId = z.coerce.number().int().min(0).max(2_147_483_647)

const query = streamFormatQuery.extend({
  last_event_id: eventId.optional().openapi({
    description:
      'The last event id seen, for clients that cannot send the `Last-Event-ID` header (the header wins)',
  }),
})

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/conversations/{id}/turns/{turn_id}/stream',
  summary: "Re-attach to a turn's stream",
  description:
    "Re-attach to a turn's stream: the events after the last one seen, then the rest as they come" +
    '\n\n' +
    [
      "Every event of a turn is numbered (the SSE `id:`) and kept, so a client that reloads or lost its connection re-attaches here, on any instance, with `Last-Event-ID` (EventSource sends it by itself) or `?last_event_id=`: it gets every event after that one, nothing twice, and then the turn's events as they happen, until `turn.ended`. Without either it gets the turn's stream from the start. A finished turn's stream replays and ends; events are kept for 24 hours after the turn ends (after that, just `turn.ended`). One request follows a turn for at most 2 minutes and then ends without `turn.ended`: resume again from the last id.",
      '',
      streamDescription,
    ].join('\n'),
  request: {
    params,
    query,
    headers: z.object({
      'last-event-id': eventId.optional().openapi({ description: 'The last event id seen' }),
    }),
  },
  responses: {
    200: {
      description: "The turn's events (text/event-stream; the AI SDK's format with ?stream=ai-sdk)",
      content: { 'text/event-stream': { schema: z.string() } },
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerResumeTurnStream = (app: App) =>
  app.openapi(route, async (c) => {
    const ctx = serviceContext(c)
    const { id, turn_id } = c.req.valid('param')
    const after = c.req.valid('header')['last-event-id'] ?? c.req.valid('query').last_event_id ?? 0
    const out = turnEncoding(c, { streamed: true })
    const events = await answerTurn(c.var.deps, ctx, { turnId: turn_id, conversationId: id, after })
    return (await out.respond(turn_id, events)) as never
  })
