import { runInBackground } from '@shared/infra/background.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { runTurnNow, type TurnEvents, turnResult } from '@shared/services/assistant/turn/index.ts'
import { titleAfterTurn } from '@shared/services/assistant/turn/title.ts'
import type { Context } from 'hono'

const encoder = new TextEncoder()

export const wantsStream = (c: Context<AppEnv>) =>
  (c.req.header('accept') ?? '').includes('text/event-stream')

/**
 * Runs a queued turn job here and answers: 200 JSON with the turn result once it ends, or with
 * Accept: text/event-stream the turn's events as they happen, ending with `turn.ended`. The stream
 * is the turn's event sink (TurnEvents), handed to the run it starts. The turn does not depend on
 * the client: one that goes away stops receiving events, the turn goes on.
 */
export async function answerTurn(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  turnId: string,
  jobId: string | null,
  first?: { event: string; data: unknown },
): Promise<Response> {
  const deps = c.var.deps
  if (!wantsStream(c)) {
    if (jobId) await runTurnNow(deps, jobId)
    const result = await turnResult(ctx, turnId)
    runInBackground(titleAfterTurn(deps, ctx, turnId))
    return c.json(result, 200)
  }
  let closed = false
  let ctrl: ReadableStreamDefaultController<Uint8Array>
  const write = (event: string, data: unknown) => {
    if (closed) return
    try {
      ctrl.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`))
    } catch {
      closed = true
    }
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      ctrl = controller
      if (first) write(first.event, first.data)
      const events: TurnEvents = { emit: (e) => write(e.event, e.data) }
      const run = jobId ? runTurnNow(deps, jobId, events) : Promise.resolve()
      void run
        .then(() => turnResult(ctx, turnId))
        .then((result) => {
          write('turn.ended', result)
          runInBackground(titleAfterTurn(deps, ctx, turnId))
        })
        .catch((err) => deps.logger.warn('assistant stream: result failed', { error: String(err) }))
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
    },
  })
}
