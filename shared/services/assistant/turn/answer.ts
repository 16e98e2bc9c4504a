import { runInBackground } from '@shared/infra/background.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import type { TurnResult } from '../schema.ts'
import { followTurn, lastTurnEvent } from './event-log.ts'
import type { TurnEvent, TurnEvents } from './events.ts'
import { turnResult } from './start.ts'
import { runTurnNow } from './steps.ts'
import { titleAfterTurn } from './title.ts'

/**
 * What a request that runs, resumes or re-attaches to a turn answers, as one async iterable of the
 * turn's events; the front end only writes them out (JSON, server-sent events, the AI SDK's stream).
 *
 * - With a job (a started turn, an approval that resumed it) the turn runs here now, and its events
 *   come as they happen, numbered by the event log. A turn the run here did not end (another
 *   instance runs it, or nothing was left to run) is followed through its stored events instead.
 * - Without one (a resumed stream, an approval that resumed nothing) its stored events are
 *   followed: after `after`, or from now on.
 * - `answer: 'result'` (a JSON answer) runs the turn the same way and gives only `turn.ended`,
 *   the turn result as the caller reads it once the run here is over, without following.
 *
 * The run starts with the iteration (the encoders begin at once), and never depends on the client
 * after that: a consumer that stops iterating stops receiving events, the turn goes on. The conversation's title is decided here: when the run here ended the turn, the
 * title's model call starts once the answer is fixed (after `turn.ended` with its quota was made),
 * so its reservation never shows in the answer; a turn run elsewhere is titled by its runner.
 */
export interface TurnAnswerRequest {
  turnId: string
  /** The queued job of the turn to run here now; null or absent: nothing to run. */
  jobId?: string | null
  /** Re-attach: the events after this number; the turn must be in `conversationId` when given. */
  after?: number
  conversationId?: string
  /** 'events' (the default): every event as it comes; 'result': only the turn result, once. */
  answer?: 'events' | 'result'
}

/**
 * Checks what a re-attaching request may see before anything is answered (404 for a turn the
 * caller may not see, or one outside the conversation), then gives the turn's events.
 */
export async function answerTurn(
  deps: FunctionDeps,
  ctx: ServiceContext,
  request: TurnAnswerRequest,
): Promise<AsyncIterable<TurnEvent>> {
  if (request.after !== undefined) await lastTurnEvent(ctx, request.turnId, request.conversationId)
  return stoppable((stopped) => turnEvents(deps, ctx, request, stopped))
}

async function* turnEvents(
  deps: FunctionDeps,
  ctx: ServiceContext,
  request: TurnAnswerRequest,
  stopped: () => boolean,
): AsyncGenerator<TurnEvent> {
  const { turnId, jobId, conversationId } = request
  const wantsEvents = request.answer !== 'result'
  const seen = { last: null as number | null, ended: false }
  let live: ReadableStreamDefaultController<TurnEvent> | undefined
  // The run's events, queued until this iterable is read (a web stream is that queue, on Deno too).
  const queued = new ReadableStream<TurnEvent>({
    start: (controller) => {
      live = controller
    },
  })
  const sink: TurnEvents = {
    emit: (e) => {
      if (e.id !== undefined) seen.last = e.id
      if (e.event === 'turn.ended') seen.ended = true
      if (wantsEvents) live?.enqueue(e)
    },
  }
  const ran = jobId ? runTurnNow(deps, jobId, sink, { title: false }) : Promise.resolve()
  const answered = ran.then(async (): Promise<TurnResult | null> => {
    const result = wantsEvents ? null : await turnResult(ctx, turnId)
    // The one title decision of a request: only a turn this run ended, after its answer is fixed.
    if (seen.ended) runInBackground(titleAfterTurn(deps, ctx, turnId))
    return result
  })
  // The title starts also when the client went away before the run ended.
  runInBackground(answered.catch(() => {}))
  void ran.finally(() => {
    try {
      live?.close()
    } catch {
      // Already cancelled: the consumer stopped reading.
    }
  })

  const reader = queued.getReader()
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      yield next.value
    }
  } finally {
    // A consumer that stopped early: the run's further events are dropped, not queued.
    void reader.cancel().catch(() => {})
  }
  const result = await answered
  if (result) {
    yield { event: 'turn.ended', data: result }
    return
  }
  if (!wantsEvents || seen.ended) return
  // Nothing ended here: from what was seen, or (an approval that resumed nothing) from now on.
  const after = request.after ?? seen.last ?? (jobId ? 0 : await lastTurnEvent(ctx, turnId))
  yield* followTurn(ctx, turnId, after, { conversationId, stopped })
}

/**
 * An iterable whose consumer's `return()` (a client that went away) is seen at once by the
 * generator's `stopped()`: a generator's own return() waits until it next yields, and a turn
 * being followed may not yield for a while (it polls until FOLLOW_MS).
 */
function stoppable(make: (stopped: () => boolean) => AsyncGenerator<TurnEvent>): AsyncIterable<TurnEvent> {
  return {
    [Symbol.asyncIterator]() {
      let stopped = false
      const inner = make(() => stopped)
      return {
        next: () => inner.next(),
        return: async () => {
          stopped = true
          void inner.return(undefined).catch(() => {})
          return { done: true, value: undefined }
        },
      }
    },
  }
}
