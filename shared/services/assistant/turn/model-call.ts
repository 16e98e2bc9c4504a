import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import {
  CredentialUnavailableError,
  modelBaseUrl,
  type UsableCredential,
  useCredential,
} from '@shared/services/credentials/use-credential.ts'
import { providerFailure } from '@shared/services/generation/providers.ts'
import type { ToolEntry } from '@shared/services/tools/tool-set.ts'
import { type Reservation, reserveUsage, settleReservation } from '@shared/services/usage/metering.ts'
import { type AutomationRunOfTurn, waitsInEventRun } from '../automation-runs.ts'
import { type HistoryItem, type ModelTool, type StreamAnswer, streamModel } from '../model.ts'
import type { ToolCallRow, TurnRow } from '../records.ts'
import { stopIfCancelled, watchForStop } from './cancel.ts'
import type { TurnEmit } from './events.ts'
import { approvalRequired, finishTurn, readConversation, readInstructions, storeAnswer } from './job-store.ts'
import { MAX_CALLS_PER_STEP, MAX_OUTPUT_TOKENS, PROVIDER_TIMEOUT_MS } from './limits.ts'
import { allInOrder } from './settled.ts'
import { historyFrom, inputTokenBound, modelTools, systemPrompt, toolByName } from './shaping.ts'

/**
 * One step's model call, for steps.ts: what goes into it (the credential, the history, the
 * instructions, the tools), the quota's reservation before it, the call itself with its text
 * streamed and Stop watched, and the answer stored with the calls it asks for. Each part that
 * ends the turn (no credential, the quota spent, the provider failing, Stop) records why and
 * answers null.
 */

/** A turn being run: who it runs as, where its events go, and the tools it may use now. */
export interface TurnRun {
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
export interface StepState {
  steps: number
  tokens: { input: number; output: number }
  credentialKey: string | null
  /** The credential's own base URL (an OpenAI-compatible one may have one); null: the platform's. */
  baseUrl: string | null
}

export interface PreparedCall {
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
export async function prepareCall(run: TurnRun, state: StepState): Promise<PreparedCall | null> {
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
export async function reserve(run: TurnRun, call: PreparedCall): Promise<Reservation | null> {
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
export async function callModel(
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
export async function recordAnswer(
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
