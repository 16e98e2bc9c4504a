import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { presentTurn, type ToolCallRow, type TurnRow } from '../records.ts'
import type { AssistantTurn } from '../schema.ts'
import type { TurnEmit } from './events.ts'
import { CANCEL_POLL_MS } from './limits.ts'

/**
 * Stop. A request marks the turn (any instance may receive it); the instance that runs the turn
 * reads the mark before each model call and before the tool calls a model call asked for, and
 * records `cancelled`: what the model already answered is kept and its tokens are metered, calls
 * not started are recorded `cancelled` and never run. A turn that waits for approval runs
 * nowhere, so it is cancelled at once.
 */

const CANCELLED_CALL = 'Not run: the turn was cancelled'

/** Marks a running turn (or cancels a waiting one). A turn that has ended is 409. */
export async function cancelTurn(
  ctx: ServiceContext,
  conversationId: string,
  turnId: string,
): Promise<{ turn: AssistantTurn }> {
  const { caller } = ctx
  const [visible] = await ctx.asTenant(
    (tx) => tx<{ status: string }[]>`
      select status from public.assistant_turns
      where id = ${turnId} and conversation_id = ${conversationId} and tenant_id = ${caller.tenantId}`,
  )
  if (!visible) throw notFound('Turn')
  const now = ctx.clock.now()
  const marked = await ctx.asOwner.begin(async (tx) => {
    const [turn] = await tx<TurnRow[]>`
      update public.assistant_turns
      set cancel_requested_at = coalesce(cancel_requested_at, ${now}), updated_at = ${now},
          status = case when status = 'awaiting_approval' then 'cancelled' else status end,
          finished_at = case when status = 'awaiting_approval' then ${now}::timestamptz else finished_at end
      where id = ${turnId} and tenant_id = ${caller.tenantId} and status in ('running', 'awaiting_approval')
      returning *`
    if (turn?.status === 'cancelled')
      await tx`
        update public.assistant_tool_calls set status = 'cancelled', result = ${CANCELLED_CALL}, finished_at = ${now}
        where turn_id = ${turnId} and tenant_id = ${caller.tenantId} and status in ('awaiting_approval', 'approved')`
    return turn
  })
  if (!marked) throw new ServiceError('CONFLICT', `The turn has already ended (${visible.status})`)
  return { turn: presentTurn(marked) }
}

/**
 * The job side, at a step: when the turn was marked, the calls given (stored, not started) are
 * recorded cancelled and so is the turn. True: the turn stops here.
 */
export async function stopIfCancelled(
  deps: Pick<FunctionDeps, 'sql' | 'clock'>,
  turn: TurnRow,
  notStarted: ToolCallRow[],
  emit: TurnEmit,
): Promise<boolean> {
  const [row] = await deps.sql<{ cancel_requested_at: Date | null }[]>`
    select cancel_requested_at from public.assistant_turns where id = ${turn.id} and tenant_id = ${turn.tenant_id}`
  if (!row?.cancel_requested_at) return false
  const now = deps.clock.now()
  await deps.sql.begin(async (tx) => {
    if (notStarted.length > 0)
      await tx`
        update public.assistant_tool_calls set status = 'cancelled', result = ${CANCELLED_CALL}, finished_at = ${now}
        where tenant_id = ${turn.tenant_id} and id in ${tx(notStarted.map((c) => c.id))}`
    await tx`
      update public.assistant_turns set status = 'cancelled', updated_at = ${now}, finished_at = ${now}
      where id = ${turn.id} and tenant_id = ${turn.tenant_id} and status = 'running'`
  })
  for (const c of notStarted)
    emit('tool_call.completed', {
      id: c.id,
      name: c.name,
      tool: c.tool,
      status: 'cancelled',
      result: CANCELLED_CALL,
    })
  return true
}

/**
 * Reads the turn's Stop mark every CANCEL_POLL_MS while its model call streams, through the
 * database every instance shares (the Stop request may reach another instance), and aborts the
 * call once it is set. `end` stops the reading.
 */
export function watchForStop(deps: FunctionDeps, turn: TurnRow): { signal: AbortSignal; end(): void } {
  const controller = new AbortController()
  let ended = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const readStopMark = async () => {
    try {
      const [row] = await deps.sql<{ cancel_requested_at: Date | null }[]>`
        select cancel_requested_at from public.assistant_turns where id = ${turn.id} and tenant_id = ${turn.tenant_id}`
      if (row?.cancel_requested_at) return controller.abort(new Error('Stopped by the user'))
    } catch {
      // A failed read is tried again at the next tick; the step's own check follows the call anyway.
    }
    if (!ended) timer = setTimeout(readStopMark, CANCEL_POLL_MS)
  }
  timer = setTimeout(readStopMark, CANCEL_POLL_MS)
  return {
    signal: controller.signal,
    end() {
      ended = true
      clearTimeout(timer)
    },
  }
}
