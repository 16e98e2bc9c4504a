import type { Logger } from '@shared/infra/logger.ts'
import type { TurnEvent } from '@shared/services/assistant/turn/index.ts'
import { AI_SDK_HEADERS, AiSdkTranslator } from './ai-sdk.ts'

/** The two streamed spellings of a turn's events: ours (server-sent events) and the AI SDK's. */
export type StreamedFormat = 'sse' | 'ai-sdk'

const encoder = new TextEncoder()

/** Writes numbered events in one format; the SSE `id:` is the event's number in its turn. */
function encoderFor(format: StreamedFormat, turnId: string) {
  const idLine = (e: TurnEvent) => (e.id === undefined ? '' : `id: ${e.id}\n`)
  if (format === 'sse')
    return {
      event: (e: TurnEvent) => `${idLine(e)}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`,
      end: () => '',
    }
  const translator = new AiSdkTranslator(turnId)
  return {
    // The id goes with the event's last chunk: a client resuming from it has seen the whole event.
    event: (e: TurnEvent) =>
      translator
        .chunks(e)
        .map((chunk, i, all) => `${i === all.length - 1 ? idLine(e) : ''}data: ${JSON.stringify(chunk)}\n\n`)
        .join(''),
    end: () => 'data: [DONE]\n\n',
  }
}

/**
 * A turn's events as a streamed response, written as they come. The stream ends when the events
 * do (with `[DONE]` in the AI SDK format): after `turn.ended`, or when a follow ran out of time
 * (the client then resumes from its last id). A client that goes away stops the iteration; the
 * turn goes on.
 */
export function eventStreamResponse(
  logger: Logger,
  format: StreamedFormat,
  turnId: string,
  events: AsyncIterable<TurnEvent>,
): Response {
  const enc = encoderFor(format, turnId)
  const iterator = events[Symbol.asyncIterator]()
  let closed = false
  let ctrl: ReadableStreamDefaultController<Uint8Array>
  const send = (text: string) => {
    if (closed || !text) return
    try {
      ctrl.enqueue(encoder.encode(text))
    } catch {
      closed = true
    }
  }
  const pump = async () => {
    for (;;) {
      const next = await iterator.next()
      if (next.done || closed) break
      send(enc.event(next.value))
    }
    send(enc.end())
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      ctrl = controller
      void pump()
        .catch((err) => logger.warn('assistant stream: ended early', { error: String(err) }))
        .finally(() => {
          if (closed) return
          closed = true
          try {
            ctrl.close()
          } catch {}
        })
    },
    cancel() {
      closed = true
      void iterator.return?.()
    },
  })
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...(format === 'ai-sdk' ? AI_SDK_HEADERS : {}),
    },
  })
}
