import { runInBackground } from '@shared/infra/background.ts'
import { actingCallerFor, type TenantCaller } from '@shared/infra/caller.ts'
import { type FunctionDeps, type ServiceContext, serviceContextFor } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { createJobEngine, type JobKind, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import {
  CredentialUnavailableError,
  modelBaseUrl,
  type UsableCredential,
  useCredential,
} from '@shared/services/credentials/use-credential.ts'
import { providerFailure } from '@shared/services/generation/providers.ts'
import { listTools, type ToolEntry } from '@shared/services/tools/tool-set.ts'
import { type Reservation, reserveUsage, settleReservation } from '@shared/services/usage/metering.ts'
import {
  type AutomationRunOfTurn,
  automationRunOfTurn,
  callerForRun,
  waitsInEventRun,
} from '../automation-runs.ts'
import type { ToolCallRow, TurnRow } from '../conversations.ts'
import { type HistoryItem, type ModelTool, type StreamAnswer, streamModel } from '../model.ts'
import { changedAfterApprovalAsked, changedSinceApprovalAsked } from './approval-basis.ts'
import { stopIfCancelled } from './cancel.ts'
import { withTurnEventLog } from './event-log.ts'
import { guarded, noTurnEvents, type TurnEmit, type TurnEvents } from './events.ts'
import {
  CANCEL_POLL_MS,
  MAX_CALLS_PER_STEP,
  MAX_OUTPUT_TOKENS,
  MAX_STEPS,
  managerRoles,
  PROVIDER_TIMEOUT_MS,
  TURN_JOB_KIND,
  TURN_LEASE_SECONDS,
} from './limits.ts'
import { allInOrder } from './settled.ts'
import {
  historyFrom,
  inputTokenBound,
  modelTools,
  systemPrompt,
  toolByName,
  toolCallEventData,
} from './shaping.ts'
import {
  approvalRequired,
  awaitApproval,
  finishTurn,
  loadTurn,
  markInterrupted,
  readConversation,
  readInstructions,
  storeAnswer,
  storeToolCallEnd,
  takeApproved,
} from './store.ts'
import { titleAfterTurn } from './title.ts'
import { runToolCall } from './tool-call.ts'

/**
 * Running a turn, the job handler of kind assistant.turn: the model is called, the tools it asks
 * for run (each through decideToolCall, inside callTool), their results go back, until the model
 * answers without tools, a limit is reached, a call waits for approval, or the quota is spent.
 *
 * A turn runs at once on the instance whose request started it, streaming its events; should
 * that instance die, the lease runs out and the assistant sweep resumes the turn on another from
 * what was stored. Everything is stored as it completes (the assistant message when the model call
 * ends, each tool call when it starts and when it ends), so a dropped stream loses nothing.
 *
 * The job reaches the database only through store.ts's job side (the owner pool, by tenant_id);
 * tools, the quota and the credential are used as the turn's creator.
 */

/** How a run ends a first exchange's turn. */
export interface TurnRunOptions {
  /**
   * Ask the model for the conversation's title when the turn completes (the default). A request
   * that runs the turn and answers for it passes false and asks after its answer is read, so the
   * title's reservation never shows in the answer's quota.
   */
  title?: boolean
}

/** The job kind, its events numbered and stored (event-log.ts) and going to `events`. */
export function turnJobKind(
  events: TurnEvents = noTurnEvents,
  options: TurnRunOptions = {},
): Record<string, JobKind> {
  return {
    [TURN_JOB_KIND]: {
      handler: (run) =>
        withTurnEventLog(run.deps, String(run.job.input.turn_id), events, (logged) =>
          runTurnJob(run, logged, options),
        ),
      maxAttempts: 2,
      leaseSeconds: TURN_LEASE_SECONDS,
    },
  }
}

/**
 * Runs a queued turn job on this instance now and resolves when it ends (the request awaits it; on
 * Supabase it is also a background task, so it outlives a client that went away).
 */
export function runTurnNow(
  deps: FunctionDeps,
  jobId: string,
  events?: TurnEvents,
  options?: TurnRunOptions,
): Promise<unknown> {
  const run = createJobEngine(deps, turnJobKind(events, options))
    .runDue({ ids: [jobId] })
    .catch((err) =>
      deps.logger.warn('turn run failed; the sweep resumes it', { job_id: jobId, error: String(err) }),
    )
  runInBackground(run)
  return run
}

/** A turn being run: who it runs as, where its events go, and the tools it may use now. */
interface TurnRun {
  deps: FunctionDeps
  ctx: ServiceContext
  turn: TurnRow
  emit: TurnEmit
  /** Hidden tools (disabled ones) are kept for finding a call by name, refused with the reason, but never offered. */
  tools: ToolEntry[]
  /** The automation run this turn is, if any (null: a conversation's turn). */
  automationRun: AutomationRunOfTurn | null
}

/** What carries from one step to the next. */
interface StepState {
  steps: number
  tokens: { input: number; output: number }
  credentialKey: string | null
  /** The credential's own base URL (an OpenAI-compatible one may have one); null: the platform's. */
  baseUrl: string | null
}

/** The job: resumes the turn from what was stored and runs it to its end, a pause, or a limit. */
async function runTurnJob({ deps, job }: JobRun, events: TurnEvents, options: TurnRunOptions): Promise<Json> {
  const turnId = String(job.input.turn_id)
  const turn = await loadTurn(deps, turnId)
  if (turn?.status !== 'running') return { turn_id: turnId, status: turn?.status ?? 'deleted' }
  const caller = await creatorOf(deps, turn)
  if (!caller) return { turn_id: turnId, status: 'failed' }
  // An automation's run names itself in its tool calls' claims: the events they record carry it
  // as their cause (docs/adr/0030).
  const automationRun = turn.triggered_by === 'automation' ? await automationRunOfTurn(deps.sql, turn) : null
  const ctx = serviceContextFor(deps, callerForRun(caller, automationRun))
  try {
    const tools = await listTools(ctx, turn.scopes, { includeHidden: true })
    await continueTurn({ deps, ctx, turn, emit: guarded(events), tools, automationRun })
  } catch (err) {
    ctx.logger.error('assistant turn failed', { turn_id: turn.id, error: String(err) })
    await finishTurn(deps, turn, 'failed', 'internal error')
  }
  const ended = await loadTurn(deps, turnId)
  // A first exchange that completed gets its model-made title, also when the sweep finished it (an
  // approval that expired, an instance that died); the call never delays the answer.
  if (ended?.status === 'completed' && options.title !== false)
    runInBackground(titleAfterTurn(deps, ctx, turnId))
  return { turn_id: turnId, status: ended?.status ?? 'deleted' }
}

/**
 * As its creator with their role now, never as anyone else: a member who left ends their turns,
 * and an automation's turn needs its creator to still be an owner or admin. Null: the turn failed.
 */
async function creatorOf(deps: FunctionDeps, turn: TurnRow): Promise<TenantCaller | null> {
  try {
    if (!turn.created_by) throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'The turn has no creator')
    return await actingCallerFor(
      deps.sql,
      turn.tenant_id,
      turn.created_by,
      turn.triggered_by === 'automation' ? managerRoles : undefined,
    )
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    await finishTurn(deps, turn, 'failed', `Not resumed: ${err.message}`)
    return null
  }
}

async function continueTurn(run: TurnRun): Promise<void> {
  if (!(await resumeStoredCalls(run))) return
  const { turn } = run
  const state: StepState = {
    steps: turn.steps,
    tokens: { input: Number(turn.input_tokens), output: Number(turn.output_tokens) },
    credentialKey: null,
    baseUrl: null,
  }
  while (await takeStep(run, state)) {
    // A tool may have changed the tool set (a connection re-authorized, a tool list refreshed).
    run.tools = await listTools(run.ctx, turn.scopes, { includeHidden: true })
  }
}

/**
 * What the turn left when it paused or its instance died: running calls are marked interrupted
 * (never run twice), approved ones run now, denied ones already carry their answer. An approved
 * call whose article changed since it began to wait is refused instead (approval-basis.ts).
 */
async function resumeStoredCalls(run: TurnRun): Promise<boolean> {
  await markInterrupted(run.deps, run.turn)
  const approved = await takeApproved(run.deps, run.turn)
  if (await stopIfCancelled(run.deps, run.turn, approved, run.emit)) return false
  const changed = await changedSinceApprovalAsked(run.deps.sql, run.turn, approved)
  for (const call of approved) run.emit('tool_call.started', toolCallEventData(call))
  await Promise.all(
    approved
      .filter((c) => changed.has(c.id))
      .map(async (c) => {
        await storeToolCallEnd(run.deps, run.turn, c, changedAfterApprovalAsked)
        run.emit('tool_call.completed', {
          id: c.id,
          name: c.name,
          tool: c.tool,
          ...changedAfterApprovalAsked,
        })
      }),
  )
  await runCalls(
    run,
    approved.filter((c) => !changed.has(c.id)),
  )
  return true
}

/** One model call and the tool calls it asks for. False once the turn ended or paused. */
async function takeStep(run: TurnRun, state: StepState): Promise<boolean> {
  if (await stopIfCancelled(run.deps, run.turn, [], run.emit)) return false
  if (state.steps >= MAX_STEPS) {
    await finishTurn(run.deps, run.turn, 'stopped', `The turn reached its limit of ${MAX_STEPS} model calls`)
    return false
  }
  const call = await prepareCall(run, state)
  if (!call) return false
  const reservation = await reserve(run, call)
  if (!reservation) return false
  const answer = await callModel(run, state, call, reservation)
  if (!answer) return false
  const stored = await recordAnswer(run, state, call, answer)
  if (await stopIfCancelled(run.deps, run.turn, stored, run.emit)) return false
  return runRequestedCalls(run, stored)
}

interface PreparedCall {
  system: string
  history: HistoryItem[]
  offered: ModelTool[]
  needsApproval: Set<string>
}

/**
 * Before every model call, at once (they are independent): the credential (first step only), the
 * history, the tenant's instructions, and which tools need approval. Null: no usable credential,
 * and the turn failed.
 */
async function prepareCall(run: TurnRun, state: StepState): Promise<PreparedCall | null> {
  const { deps, turn } = run
  const credential: Promise<Pick<UsableCredential, 'secret' | 'baseUrl'>> = state.credentialKey
    ? Promise.resolve({ secret: state.credentialKey, baseUrl: state.baseUrl })
    : useCredential(deps, {
        tenantId: turn.tenant_id,
        provider: turn.provider,
        environment: turn.credential_environment,
        callerKind: turn.triggered_by === 'automation' ? 'automation' : 'assistant',
        functionName: 'assistant',
      })
  try {
    // The credential first: its failure is the one reported when several fail.
    const [key, records, instructions, needsApproval] = await allInOrder([
      credential,
      readConversation(deps, turn),
      readInstructions(deps, turn.tenant_id),
      approvalRequired(deps, turn.tenant_id),
    ])
    state.credentialKey = key.secret
    state.baseUrl = key.baseUrl
    return {
      system: systemPrompt(instructions),
      history: historyFrom(records.messages, records.calls),
      offered: modelTools(run.tools),
      needsApproval,
    }
  } catch (err) {
    if (!(err instanceof CredentialUnavailableError)) throw err
    await finishTurn(deps, turn, 'failed', `No usable ${turn.provider} credential: ${err.message}`)
    return null
  }
}

/**
 * The quota holds under concurrent turns and automations: the call's most tokens are reserved
 * before it (a turn stops once they do not fit; Free refuses overage) and settled after it.
 * Null: the quota is spent, and the turn stopped.
 */
async function reserve(run: TurnRun, call: PreparedCall): Promise<Reservation | null> {
  const { system, history, offered } = call
  try {
    return await reserveUsage(
      run.ctx,
      'assistant',
      inputTokenBound({ system, history, tools: offered }) + MAX_OUTPUT_TOKENS,
    )
  } catch (err) {
    if (!(err instanceof ServiceError && err.code === 'QUOTA_EXCEEDED')) throw err
    await finishTurn(run.deps, run.turn, 'stopped', `Stopped: ${err.message}`)
    return null
  }
}

/**
 * The model call, its text streamed as it comes; what the provider reports it spent replaces the
 * reservation. Null: the call failed (nothing counted), and the turn failed with the reason; or
 * Stop cut it (what was shown is stored as the answer, and the turn is cancelled).
 */
async function callModel(
  run: TurnRun,
  state: StepState,
  call: PreparedCall,
  reservation: Reservation,
): Promise<StreamAnswer | null> {
  const { deps, ctx, turn } = run
  const apiKey = state.credentialKey!
  const stop = watchForStop(deps, turn)
  let shown = ''
  let answer: StreamAnswer | undefined
  try {
    answer = await streamModel({
      provider: turn.provider,
      baseUrl: modelBaseUrl(deps.config, turn.provider, state),
      apiKey,
      model: turn.model,
      system: call.system,
      history: call.history,
      tools: call.offered,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      timeoutMs: PROVIDER_TIMEOUT_MS,
      fetch: deps.fetch,
      signal: stop.signal,
      onText: (text) => {
        shown += text
        run.emit('text.delta', { text })
      },
    })
  } catch (err) {
    if (!stop.signal.aborted) {
      await settleReservation(ctx, reservation, 0)
      const failure = providerFailure(turn.provider, err, apiKey)
      const reason =
        failure?.reason ?? `The model's answer broke off: ${err instanceof Error ? err.message : String(err)}`
      await finishTurn(deps, turn, 'failed', reason.slice(0, 1000))
      return null
    }
  } finally {
    stop.end()
  }
  // Cut by Stop (the OpenAI SDK ends a stream it aborted without an error; Anthropic's throws).
  if (stop.signal.aborted || !answer) {
    await keepWhatWasShown(run, state, call, reservation, shown, answer)
    return null
  }
  state.steps++
  await settleReservation(ctx, reservation, answer.inputTokens + answer.outputTokens)
  state.tokens.input += answer.inputTokens
  state.tokens.output += answer.outputTokens
  return answer
}

/**
 * Reads the turn's Stop mark every CANCEL_POLL_MS while its model call streams, through the
 * database every instance shares (the Stop request may reach another instance), and aborts the
 * call once it is set. `end` stops the reading.
 */
function watchForStop(deps: FunctionDeps, turn: TurnRow): { signal: AbortSignal; end(): void } {
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

/**
 * Stop cut the model call: the text already streamed is the answer (what the person saw stays),
 * the turn is cancelled. The provider reports no usage for a cut stream, so the reservation is
 * settled to an estimate: the input's bound and the text's bytes over three (ceil), as a generation
 * estimates its prompt; never more than was reserved.
 */
async function keepWhatWasShown(
  run: TurnRun,
  state: StepState,
  call: PreparedCall,
  reservation: Reservation,
  shown: string,
  reported?: StreamAnswer,
): Promise<void> {
  // A stream that ended with its usage just as Stop came has its provider's figures.
  const known = reported && reported.inputTokens + reported.outputTokens > 0
  const inputTokens = known
    ? reported.inputTokens
    : inputTokenBound({ system: call.system, history: call.history, tools: call.offered })
  const outputTokens = known
    ? reported.outputTokens
    : Math.min(MAX_OUTPUT_TOKENS, Math.ceil(new TextEncoder().encode(shown).length / 3))
  state.steps++
  await settleReservation(run.ctx, reservation, inputTokens + outputTokens)
  state.tokens.input += inputTokens
  state.tokens.output += outputTokens
  await recordAnswer(run, state, call, { text: shown, toolCalls: [], inputTokens, outputTokens })
  await stopIfCancelled(run.deps, run.turn, [], run.emit)
}

/** Stores the answer and the calls it asks for (at most MAX_CALLS_PER_STEP), and reports the usage. */
async function recordAnswer(
  run: TurnRun,
  state: StepState,
  call: PreparedCall,
  answer: StreamAnswer,
): Promise<ToolCallRow[]> {
  const stored = await storeAnswer(run.deps, run.turn, {
    steps: state.steps,
    turnTokens: state.tokens,
    answer,
    calls: answer.toolCalls.slice(0, MAX_CALLS_PER_STEP).map((request) => {
      const entry = toolByName(run.tools, request.name)
      const waits = Boolean(
        entry?.platform?.requiresApproval ||
          (entry?.connection && call.needsApproval.has(`${entry.connection.id}|${entry.toolName}`)) ||
          waitsInEventRun(run.automationRun, entry),
      )
      return { request, tool: entry?.name ?? request.name, waits }
    }),
  })
  run.emit('usage', {
    input_tokens: answer.inputTokens,
    output_tokens: answer.outputTokens,
    turn: { input_tokens: state.tokens.input, output_tokens: state.tokens.output },
  })
  return stored
}

/**
 * Runs the calls that need no approval. False when the turn ended: no calls (the model answered)
 * or some wait for approval (the turn pauses).
 */
async function runRequestedCalls(run: TurnRun, stored: ToolCallRow[]): Promise<boolean> {
  if (stored.length === 0) {
    await finishTurn(run.deps, run.turn, 'completed', null)
    return false
  }
  for (const c of stored)
    run.emit(
      c.status === 'running' ? 'tool_call.started' : 'tool_call.approval_required',
      toolCallEventData(c),
    )
  await runCalls(
    run,
    stored.filter((c) => c.status === 'running'),
  )
  if (stored.some((c) => c.status === 'awaiting_approval')) {
    await awaitApproval(run.deps, run.turn, stored, run.deps.clock.now())
    return false
  }
  return true
}

/** Parallel calls run in parallel; each is stored as it ends. */
async function runCalls(run: TurnRun, calls: ToolCallRow[]): Promise<void> {
  await Promise.all(
    calls.map((c) => runToolCall(run.deps, run.ctx, run.turn, c, toolByName(run.tools, c.name), run.emit)),
  )
}
