import { scopes as allScopes, requireRole } from '@shared/infra/caller.ts'
import { isPgError, pgErrors } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import type { JobRow } from '@shared/infra/jobs/engine.ts'
import { assertWithinQuota } from '@shared/services/usage/metering.ts'
import type { MessageRow, TurnRow } from '../records.ts'
import type { TurnResult } from '../schema.ts'
import { managerRoles } from './limits.ts'
import { modelChoice, noCredentialError } from './model-choice.ts'
import { allInOrder } from './settled.ts'
import { shapeTurnResult } from './shaping.ts'
import {
  assertConversationVisible,
  insertTurn,
  type Replaced,
  readTurnResult,
  storeDecision,
  visibleToolCall,
} from './store.ts'

/** What a request does with a turn: start one, decide a call that waits for approval, read the result. */

export interface StartTurnOptions {
  triggeredBy: 'assistant' | 'automation'
  /** The platform tools' scopes: a key's own scopes; every scope for a signed-in user. */
  scopes?: string[]
  /** The exchange this turn is a new version of (regenerate, edit: branch.ts). */
  replaces?: Replaced
}

export interface StartedTurn {
  turn: TurnRow
  job: JobRow
  userMessage: MessageRow
}

/**
 * Checks what can be checked before anything is stored (the conversation is the caller's, the
 * quota, an AI credential), then stores the user message, the turn and its job in one
 * transaction. A second open turn on the conversation is 409 CONFLICT.
 */
export async function startTurn(
  ctx: ServiceContext,
  conversationId: string,
  content: string,
  opts: StartTurnOptions,
): Promise<StartedTurn> {
  const { caller } = ctx
  // Independent checks at once; reported in this order: the conversation, the quota, the model.
  const [, , choice] = await allInOrder([
    assertConversationVisible(ctx, conversationId),
    assertWithinQuota(ctx, 'assistant'),
    modelChoice(ctx, caller.tenantId),
  ])
  if (!choice.hasCredential || !choice.provider || !choice.model) throw noCredentialError(choice)
  try {
    return await insertTurn(ctx, {
      conversationId,
      content,
      triggeredBy: opts.triggeredBy,
      provider: choice.provider,
      model: choice.model,
      environment: choice.environment,
      scopes: opts.scopes ?? [...allScopes],
      now: ctx.clock.now(),
      replaces: opts.replaces,
    })
  } catch (err) {
    if (isPgError(err, pgErrors.uniqueViolation))
      throw new ServiceError(
        'CONFLICT',
        'A turn is already running in this conversation (or waits for approval): wait for it to end',
      )
    if (isPgError(err, pgErrors.foreignKeyViolation)) throw notFound('Conversation')
    throw err
  }
}

/**
 * An owner's or admin's decision on a call that waits for approval. When no call of the turn
 * waits any more, the turn is queued again and the returned job runs it (on this instance, or on
 * any other through the sweep). A decided call is 409.
 */
const SCHEDULE_TOOL = 'platform:schedule_article'

export async function decideApproval(
  ctx: ServiceContext,
  conversationId: string,
  callId: string,
  decision: { approve: boolean; reason?: string; publish_at?: string },
): Promise<{ turnId: string; job: JobRow | null }> {
  requireRole(ctx.caller, managerRoles)
  const visible = await visibleToolCall(ctx, conversationId, callId)
  if (!visible) throw notFound('Tool call')
  // The approver may move a schedule's time (an approval that comes after the time the model
  // chose); no other call's arguments change.
  if (decision.publish_at !== undefined && visible.tool !== SCHEDULE_TOOL)
    throw invalidField('publish_at', `only when approving a ${SCHEDULE_TOOL} call`)
  const result = decision.approve
    ? null
    : `Denied by the tenant${decision.reason ? `: ${decision.reason}` : ''}. Do not retry this call.`
  const stored = await storeDecision(ctx, conversationId, callId, decision.approve, result, ctx.clock.now(), {
    publishAt: decision.publish_at,
  })
  if (!stored.decided && stored.expiredAt)
    throw new ServiceError(
      'CONFLICT',
      `The approval expired at ${stored.expiredAt.toISOString()}: the call can no longer be approved or denied`,
    )
  if (!stored.decided)
    throw new ServiceError('CONFLICT', `The tool call is not waiting for approval (${visible.status})`)
  return { turnId: stored.turnId, job: stored.job }
}

/** The turn as the API answers it (JSON) and as the stream's last event. */
export async function turnResult(ctx: ServiceContext, turnId: string): Promise<TurnResult> {
  const { turn, messages, calls, quota } = await readTurnResult(ctx, turnId)
  return shapeTurnResult(turn, messages, calls, quota)
}
