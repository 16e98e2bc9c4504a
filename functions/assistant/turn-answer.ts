import { z } from '@hono/zod-openapi'
import { streamEvents, turnResultSchema } from '@shared/services/assistant/schema.ts'

/** What a route that runs a turn answers: the turn result as JSON, or its events. */
export const turnAnswer = {
  description: 'The turn result (JSON), or its events (text/event-stream)',
  content: {
    'application/json': { schema: turnResultSchema },
    'text/event-stream': { schema: z.string() },
  },
}

/** How a route that runs a turn streams it: the events, the re-attach, the AI SDK format. */
export const streamDescription = [
  'With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:',
  ...Object.entries(streamEvents).map(([name, body]) => `- \`${name}\`: ${body}`),
  'The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.',
  'Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.',
  "With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.",
].join('\n')
