import { runInBackground } from '@shared/infra/background.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { AI_SDK_FORMAT, AI_SDK_HEADERS, AiSdkTranslator } from '@shared/services/assistant/ai-sdk-stream.ts'
import {
  followTurn,
  lastTurnEvent,
  runTurnNow,
  type TurnEvent,
  type TurnEvents,
  turnResult,
} from '@shared/services/assistant/turn/index.ts'
import { titleAfterTurn } from '@shared/services/assistant/turn/title.ts'
import type { Context } from 'hono'

const encoder = new TextEncoder()

export type StreamFormat = 'json' | 'sse' | 'ai-sdk'

/**
 * How the request wants the turn: `?stream=ai-sdk` or `x-stream-format: ai-sdk` (the AI SDK's UI
 * message stream, always streamed), `Accept: text/event-stream` (our server-sent events), or JSON.
 */
export function streamFormat(c: Context<AppEnv>): StreamFormat {
  const chosen = c.req.query('stream') ?? c.req.header('x-stream-format')
  if (chosen === AI_SDK_FORMAT) return 'ai-sdk'
  if (chosen === 'sse' || (c.req.header('accept') ?? '').includes('text/event-stream')) return 'sse'
  return 'json'
}

/** Writes numbered events in one format; the SSE `id:` is the event's number in its turn. */
function encoderFor(format: Exclude<StreamFormat, 'json'>, turnId: string) {
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
 * A turn's events as a streamed response. `source` writes events until the stream should end;
 * the stream always ends with `turn.ended` (and `[DONE]` in the AI SDK format) unless the client
 * went away or a follow ran out of time (the client then resumes from its last id).
 */
function streamResponse(
  c: Context<AppEnv>,
  format: Exclude<StreamFormat, 'json'>,
  turnId: string,
  source: (write: (e: TurnEvent) => void, closed: () => boolean) => Promise<void>,
): Response {
  const deps = c.var.deps
  const enc = encoderFor(format, turnId)
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
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      ctrl = controller
      void source(
        (e) => send(enc.event(e)),
        () => closed,
      )
        .then(() => send(enc.end()))
        .catch((err) => deps.logger.warn('assistant stream: ended early', { error: String(err) }))
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

/**
 * Runs a queued turn job here and answers: 200 JSON with the turn result once it ends, or a stream
 * of its events as they happen (our server-sent events or the AI SDK's format), ending with
 * `turn.ended`. The stream is the turn's event sink (TurnEvents), handed to the run it starts; when
 * the run here did not end the turn (another instance runs it, or nothing was left to run), the
 * stream follows the turn's stored events instead. The turn does not depend on the client: one
 * that goes away stops receiving events, the turn goes on.
 */
export async function answerTurn(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  turnId: string,
  jobId: string | null,
): Promise<Response> {
  const deps = c.var.deps
  const format = streamFormat(c)
  if (format === 'json') {
    if (jobId) await runTurnNow(deps, jobId, undefined, { title: false })
    const result = await turnResult(ctx, turnId)
    // The title's model call starts once the answer was read (its reservation is not in `quota`).
    if (jobId) runInBackground(titleAfterTurn(deps, ctx, turnId))
    return c.json(result, 200)
  }
  return streamResponse(c, format, turnId, async (write, closed) => {
    let last: number | null = null
    let ended = false
    const events: TurnEvents = {
      emit: (e) => {
        if (e.id !== undefined) last = e.id
        if (e.event === 'turn.ended') ended = true
        write(e)
      },
    }
    if (jobId) await runTurnNow(deps, jobId, events, { title: false })
    if (ended) {
      // After turn.ended went out with its quota; a turn run elsewhere is titled by its runner.
      if (jobId) runInBackground(titleAfterTurn(deps, ctx, turnId))
      return
    }
    // Nothing ran here: from what was seen, or (an approval that resumed nothing) from now on.
    const after = last ?? (jobId ? 0 : await lastTurnEvent(ctx, turnId))
    for await (const e of followTurn(ctx, turnId, after, { stopped: closed })) write(e)
  })
}

/**
 * Re-attaches to a turn's stream: its events after `after`, then as they come, until `turn.ended`.
 */
export function resumeTurn(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  conversationId: string,
  turnId: string,
  after: number,
): Response {
  const format = streamFormat(c) === 'ai-sdk' ? 'ai-sdk' : 'sse'
  return streamResponse(c, format, turnId, async (write, closed) => {
    for await (const e of followTurn(ctx, turnId, after, { conversationId, stopped: closed })) write(e)
  })
}
