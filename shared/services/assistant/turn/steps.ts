import { runInBackground } from '@shared/infra/background.ts'
import { actingCallerFor, type TenantCaller } from '@shared/infra/caller.ts'
import { type FunctionDeps, serviceContextFor } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { createJobEngine, type JobKind, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import { listTools } from '@shared/services/tools/tool-set.ts'
import { automationRunOfTurn, callerForRun } from '../automation-runs.ts'
import type { ToolCallRow, TurnRow } from '../records.ts'
import { changedAfterApprovalAsked, changedSinceApprovalAsked } from './approval-basis.ts'
import { stopIfCancelled } from './cancel.ts'
import { withTurnEventLog } from './event-log.ts'
import { guarded, noTurnEvents, type TurnEvents } from './events.ts'
import {
  awaitApproval,
  finishTurn,
  loadTurn,
  markInterrupted,
  storeToolCallEnd,
  takeApproved,
} from './job-store.ts'
import { MAX_STEPS, managerRoles, TURN_JOB_KIND, TURN_LEASE_SECONDS } from './limits.ts'
import { callModel, prepareCall, recordAnswer, reserve, type StepState, type TurnRun } from './model-call.ts'
import { toolByName, toolCallEventData } from './shaping.ts'
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
 * The job reaches the database only through job-store.ts (the owner pool, by tenant_id);
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
