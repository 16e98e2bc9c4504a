import { z } from '@hono/zod-openapi'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { TurnAnswerRequest, TurnEvent } from '@shared/services/assistant/turn/index.ts'
import type { Context } from 'hono'
import { eventStreamResponse, type StreamedFormat } from './event-stream.ts'

/** How a request picks the format: `?stream=ai-sdk` or the header `x-stream-format: ai-sdk`. */
export const streamFormatQuery = z.object({
  stream: z.enum(['ai-sdk', 'sse']).optional().openapi({
    description:
      "`ai-sdk`: the answer is the Vercel AI SDK UI message stream (header `x-vercel-ai-ui-message-stream: v1`), whatever the Accept header says; `sse`: the platform's own server-sent events. The header `x-stream-format` says the same (`?stream` wins).",
  }),
})

type Format = 'json' | StreamedFormat

/**
 * How the request wants the turn: `?stream=ai-sdk` or `x-stream-format: ai-sdk` (the AI SDK's UI
 * message stream, always streamed), `Accept: text/event-stream` (our server-sent events), or JSON.
 */
function streamFormat(c: Context<AppEnv>): Format {
  const chosen = c.req.query('stream') ?? c.req.header('x-stream-format')
  if (chosen === 'ai-sdk') return 'ai-sdk'
  if (chosen === 'sse' || (c.req.header('accept') ?? '').includes('text/event-stream')) return 'sse'
  return 'json'
}

/**
 * What a route that answers with a turn asks the service for (`answer`: every event, or the
 * result alone for JSON) and how it writes the events out: the turn result as JSON (200), or a
 * stream in our server-sent events or the AI SDK's format. `streamed`: a route that only streams
 * (a resumed stream is never JSON).
 */
export function turnEncoding(c: Context<AppEnv>, opts: { streamed?: boolean } = {}) {
  const chosen = streamFormat(c)
  const format: Format = opts.streamed && chosen === 'json' ? 'sse' : chosen
  const answer: TurnAnswerRequest['answer'] = format === 'json' ? 'result' : 'events'
  return {
    answer,
    respond: async (turnId: string, events: AsyncIterable<TurnEvent>): Promise<Response> => {
      if (format !== 'json') return eventStreamResponse(c.var.deps.logger, format, turnId, events)
      for await (const e of events) if (e.event === 'turn.ended') return c.json(e.data as object, 200)
      throw new Error(`turn ${turnId}: no result`)
    },
  }
}
