import { runInBackground } from '@shared/infra/background.ts'
import { actingCallerFor, scopes as allScopes, requireRole, type TenantCaller } from '@shared/infra/caller.ts'
import { isPgError, pgErrors, type Queryable } from '@shared/infra/db.ts'
import { type FunctionDeps, type ServiceContext, serviceContextFor } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { engineFor, enqueueJob, type JobRow, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import { CredentialUnavailableError, useCredential } from '../credentials/use-credential.ts'
import { providerFailure } from '../generation/providers.ts'
import { type AiProvider, defaultModels } from '../generation/schema.ts'
import { callTool, listTools, type ToolEntry } from '../tools/tool-set.ts'
import {
  assertWithinQuota,
  periodOf,
  productIds,
  type Reservation,
  reserveUsage,
  settleReservation,
} from '../usage/metering.ts'
import { awaitApproval } from './approval-required.ts'
import {
  conversationRecords,
  DEFAULT_TITLE,
  type MessageRow,
  presentMessage,
  presentToolCall,
  presentTurn,
  type ToolCallRow,
  type TurnRow,
} from './conversations.ts'
import { type HistoryItem, type ModelTool, streamModel } from './model.ts'
import type { StreamEventName, TurnResult } from './schema.ts'

/**
 * One assistant turn: the model is called, the tools it asks for run (each through decideToolCall,
 * inside callTool), their results go back, until the model answers without tools, a limit is
 * reached, a call waits for approval, or the quota is spent.
 *
 * A turn is a job of the job engine (kind assistant.turn): the request that starts it runs it at
 * once on its own instance and streams its events; should that instance die, the lease runs out
 * and the assistant sweep resumes the turn on another from what was stored. Everything is stored
 * as it completes (the assistant message when the model call ends, each tool call when it starts
 * and when it ends), so a dropped stream loses nothing.
 */

export const TURN_JOB_KIND = 'assistant.turn'
/** Who approves tool calls, and whose automations run: owners and admins. */
export const managerRoles = ['owner', 'admin'] as const
/** Model calls per turn (each followed by its tool calls). */
export const MAX_STEPS = 8
/** Tool calls the model may ask for in one step; the rest are refused. */
export const MAX_CALLS_PER_STEP = 8
/** What a tool result may weigh when it goes back to the model. */
export const MAX_TOOL_RESULT_CHARS = 16_000
export const MAX_OUTPUT_TOKENS = 2000
const PROVIDER_TIMEOUT_MS = 120_000
/** The lease: longer than the turn may take on one instance (edge runtime wall clock 150 s). */
const TURN_LEASE_SECONDS = 360
/** Messages of the conversation sent with each call (the newest). */
const HISTORY_MESSAGES = 60

export const SYSTEM_PROMPT =
  "You are the tenant's assistant on a content platform. You can use the tools listed to read and " +
  "write the tenant's sites and articles and to act in the tenant's connected services. Use a tool " +
  'only when it helps; when a tool call is refused or fails, say so plainly and do not pretend it ran. ' +
  'Never invent ids: look them up with a tool first.'

// ---------------------------------------------------------------------------------------------
// Events: the request that runs a turn listens on this instance; other instances see the stored rows.

export type TurnEvent = { event: StreamEventName; data: unknown }
type Listener = (e: TurnEvent) => void
const listeners = new Map<string, Set<Listener>>()

/** Listens to a turn's events on this instance; returns the function that stops listening. */
export function onTurnEvents(turnId: string, listener: Listener): () => void {
  const set = listeners.get(turnId) ?? new Set<Listener>()
  listeners.set(turnId, set)
  set.add(listener)
  return () => {
    set.delete(listener)
    if (set.size === 0) listeners.delete(turnId)
  }
}

function emit(turnId: string, event: StreamEventName, data: unknown): void {
  for (const l of listeners.get(turnId) ?? []) {
    try {
      l({ event, data })
    } catch {
      // A listener whose client went away: the turn goes on.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Settings: which provider, model and credential.

interface SettingsRow {
  provider: AiProvider | null
  model: string | null
  credential_environment: 'development' | 'staging' | 'production'
  instructions: string | null
}

export interface ModelChoice {
  provider: AiProvider | null
  model: string | null
  environment: 'development' | 'staging' | 'production'
  instructions: string | null
  hasCredential: boolean
}

/** Whether the tenant has an unexpired credential of this provider and environment (no use recorded). */
async function hasCredential(
  db: Queryable,
  tenantId: string,
  provider: AiProvider,
  environment: string,
  now: Date,
) {
  const [row] = await db`
    select 1 from public.credentials c join public.providers p on p.id = c.provider_id
    where c.tenant_id = ${tenantId} and p.slug = ${provider} and c.environment = ${environment}
      and (c.expires_at is null or c.expires_at > ${now})
    limit 1`
  return Boolean(row)
}

/**
 * The tenant's setting, and with provider unset the provider of its AI credential (OpenAI first).
 * As the caller: both tables are visible to every member under RLS.
 */
export async function modelChoice(ctx: ServiceContext, tenantId: string): Promise<ModelChoice> {
  const now = ctx.clock.now()
  const { s, found } = await ctx.asTenant(async (tx) => {
    const [s] = await tx<SettingsRow[]>`
      select provider, model, credential_environment, instructions
      from public.assistant_settings where tenant_id = ${tenantId}`
    const environment = s?.credential_environment ?? 'production'
    const candidates: AiProvider[] = s?.provider ? [s.provider] : ['openai', 'anthropic']
    for (const provider of candidates) {
      if (await hasCredential(tx, tenantId, provider, environment, now)) return { s, found: provider }
    }
    return { s, found: null }
  })
  const environment = s?.credential_environment ?? 'production'
  if (found)
    return {
      provider: found,
      model: s?.model ?? defaultModels[found],
      environment,
      instructions: s?.instructions ?? null,
      hasCredential: true,
    }
  return {
    provider: s?.provider ?? null,
    model: s?.model ?? (s?.provider ? defaultModels[s.provider] : null),
    environment,
    instructions: s?.instructions ?? null,
    hasCredential: false,
  }
}

function noCredentialError(choice: ModelChoice): ServiceError {
  const which =
    choice.provider === 'anthropic'
      ? 'an Anthropic credential'
      : choice.provider === 'openai'
        ? 'an OpenAI credential'
        : 'an OpenAI or Anthropic credential'
  return new ServiceError(
    'UNPROCESSABLE',
    `The assistant needs an AI model: add ${which} (category AI) for the ${choice.environment} environment under Credentials (POST /api/credentials)`,
  )
}

// ---------------------------------------------------------------------------------------------
// Starting a turn.

export interface StartTurnOptions {
  triggeredBy: 'assistant' | 'automation'
  /** The platform tools' scopes: a key's own scopes; every scope for a signed-in user. */
  scopes?: string[]
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
  const [visibleRows, quota, choiceResult] = await Promise.allSettled([
    ctx.asTenant(
      (tx) => tx<{ title: string }[]>`
        select title from public.assistant_conversations where id = ${conversationId} and tenant_id = ${caller.tenantId}`,
    ),
    assertWithinQuota(ctx, 'assistant'),
    modelChoice(ctx, caller.tenantId),
  ])
  if (visibleRows.status === 'rejected') throw visibleRows.reason
  if (!visibleRows.value[0]) throw notFound('Conversation')
  if (quota.status === 'rejected') throw quota.reason
  if (choiceResult.status === 'rejected') throw choiceResult.reason
  const choice = choiceResult.value
  if (!choice.hasCredential || !choice.provider || !choice.model) throw noCredentialError(choice)

  const now = ctx.clock.now()
  const scopes = opts.scopes ?? [...allScopes]
  try {
    return await ctx.asOwner.begin(async (tx) => {
      const [turn] = await tx<TurnRow[]>`
        insert into public.assistant_turns
          (tenant_id, conversation_id, status, triggered_by, provider, model, credential_environment, scopes,
           created_by, created_at, updated_at)
        values (${caller.tenantId}, ${conversationId}, 'running', ${opts.triggeredBy}, ${choice.provider},
                ${choice.model}, ${choice.environment}, ${scopes}, ${caller.userId}, ${now}, ${now})
        returning *`
      const [userMessage] = await tx<MessageRow[]>`
        insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content, created_at)
        values (${caller.tenantId}, ${conversationId}, ${turn!.id}, 'user', ${content}, ${now})
        returning id, conversation_id, turn_id, role, content, created_at`
      const job = await enqueueJob(tx, {
        tenantId: caller.tenantId,
        kind: TURN_JOB_KIND,
        input: { turn_id: turn!.id, conversation_id: conversationId },
        maxAttempts: 2,
        now,
      })
      // A turn someone typed is their job (queued through the owner handle, it would name no creator
      // and read as scheduled); an automation's turn stays the schedule's.
      if (opts.triggeredBy === 'assistant') {
        await tx`update public.jobs set created_by = ${caller.userId} where id = ${job.id}`
        job.created_by = caller.userId
      }
      await tx`update public.assistant_turns set job_id = ${job.id} where id = ${turn!.id}`
      // The first message names a conversation that has no title of its own.
      const title = content.trim().replace(/\s+/g, ' ').slice(0, 80)
      await tx`
        update public.assistant_conversations
        set last_message_at = ${now}, updated_at = ${now},
            title = case when title = ${DEFAULT_TITLE} then ${title} else title end
        where id = ${conversationId} and tenant_id = ${caller.tenantId}`
      return { turn: { ...turn!, job_id: job.id }, job, userMessage: userMessage! }
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
 * Runs a queued turn job on this instance now and resolves when it ends (the request awaits it; on
 * Supabase it is also a background task, so it outlives a client that went away).
 */
export function runTurnNow(deps: FunctionDeps, jobId: string): Promise<unknown> {
  const run = assistantEngine(deps)
    .runDue({ ids: [jobId] })
    .catch((err) =>
      deps.logger.warn('turn run failed; the sweep resumes it', { job_id: jobId, error: String(err) }),
    )
  runInBackground(run)
  return run
}

// ---------------------------------------------------------------------------------------------
// Running a turn (the job handler).

async function loadTurn(db: Queryable, turnId: string): Promise<TurnRow | undefined> {
  const [turn] = await db<TurnRow[]>`select * from public.assistant_turns where id = ${turnId}`
  return turn
}

async function finishTurn(
  deps: FunctionDeps,
  turn: TurnRow,
  status: 'completed' | 'failed' | 'stopped' | 'awaiting_approval',
  error: string | null,
) {
  const now = deps.clock.now()
  await deps.sql`
    update public.assistant_turns
    set status = ${status}, error = ${error}, updated_at = ${now},
        finished_at = ${status === 'awaiting_approval' ? null : now}
    where id = ${turn.id} and tenant_id = ${turn.tenant_id} and status = 'running'`
}

/** The provider-safe name each tool goes by with the model: the MCP alias ([A-Za-z0-9_-]{1,64}). */
function modelTools(tools: ToolEntry[]): ModelTool[] {
  return tools
    .filter((t) => !t.hidden)
    .map((t) => ({
      name: t.mcpName,
      description: t.description || t.name,
      inputSchema: { type: 'object', ...t.inputSchema },
    }))
}

/** Tool permissions that require approval, as '<connection_id>|<tool_name>'. */
async function approvalRequired(db: Queryable, tenantId: string): Promise<Set<string>> {
  const rows = await db<{ connection_id: string; tool_name: string }[]>`
    select connection_id, tool_name from public.integration_tool_permissions
    where tenant_id = ${tenantId} and requires_approval and allowed`
  return new Set(rows.map((r) => `${r.connection_id}|${r.tool_name}`))
}

/**
 * A bound on a model call's input tokens before it is made: a third of the request's UTF-8 bytes
 * (the system prompt, the history and the tools' schemas). Ordinary text takes about four bytes a
 * token and code or JSON about three, so this over-reserves, and the settlement returns the
 * difference (docs/tenants-and-usage.md says where it can fall short).
 */
export function inputTokenBound(request: {
  system: string
  history: HistoryItem[]
  tools: ModelTool[]
}): number {
  return Math.ceil(new TextEncoder().encode(JSON.stringify(request)).length / 3)
}

/** A tool result as the model sees it: JSON, cut to MAX_TOOL_RESULT_CHARS. */
export function boundResult(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')
  } catch {
    text = String(value)
  }
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated: the result had ${text.length} characters]`
}

/** The conversation as the model is shown it: messages with their tool calls and results. */
function historyFrom(messages: MessageRow[], calls: ToolCallRow[]): HistoryItem[] {
  const history: HistoryItem[] = []
  for (const m of messages.slice(-HISTORY_MESSAGES)) {
    if (m.role === 'user') {
      history.push({ role: 'user', content: m.content })
      continue
    }
    const own = calls.filter((c) => c.message_id === m.id).sort((a, b) => a.position - b.position)
    history.push({
      role: 'assistant',
      content: m.content,
      toolCalls: own.map((c) => ({ id: c.provider_call_id, name: c.name, arguments: c.arguments })),
    })
    if (own.length > 0)
      history.push({
        role: 'tool',
        results: own.map((c) => ({
          id: c.provider_call_id,
          content: c.result ?? `Not run (${c.status})`,
          isError: c.status !== 'ok',
        })),
      })
  }
  // A provider refuses a history that opens with an assistant message (a cut at the window's edge).
  while (history.length > 0 && history[0]!.role !== 'user') history.shift()
  return history
}

async function quotaState(
  db: Queryable,
  tenantId: string,
  now: Date,
): Promise<{ used: number; limit: number | null }> {
  const [row] = await db<{ used: string | null; quota: string | null }[]>`
    select (select units from public.usage_counters
            where tenant_id = t.id and product_id = ${productIds.assistant} and period = ${periodOf(now)}) as used,
           q.monthly_quota as quota
    from public.tenants t
    join public.plan_quotas q on q.plan = t.plan and q.product_id = ${productIds.assistant}
    where t.id = ${tenantId}`
  return { used: Number(row?.used ?? 0), limit: row?.quota == null ? null : Number(row.quota) }
}

/**
 * The turn as the API answers it (JSON) and as the stream's last event. As the caller: turns,
 * messages, tool calls, counters and quotas are all visible to members under RLS.
 */
export async function turnResult(ctx: ServiceContext, turnId: string): Promise<TurnResult> {
  const tenantId = ctx.caller.tenantId
  const { turn, messages, calls, quota } = await ctx.asTenant(async (tx) => {
    const turn = await loadTurn(tx, turnId)
    if (!turn || turn.tenant_id !== tenantId) throw notFound('Turn')
    const messages = await tx<MessageRow[]>`
      select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
      where tenant_id = ${tenantId} and turn_id = ${turnId} and role = 'assistant' order by seq`
    const calls = await tx<ToolCallRow[]>`
      select * from public.assistant_tool_calls where tenant_id = ${tenantId} and turn_id = ${turnId}
      order by created_at, position`
    return { turn, messages, calls, quota: await quotaState(tx, tenantId, ctx.clock.now()) }
  })
  const last = messages.at(-1)
  const presented = presentTurn(turn)
  return {
    turn: presented,
    message: last ? presentMessage(last, calls) : null,
    tool_calls: calls.map(presentToolCall),
    usage: presented.usage,
    quota,
  }
}

/** Runs one tool call with the per-call time limit; the outcome is stored and sent as an event. */
async function runToolCall(
  ctx: ServiceContext,
  turn: TurnRow,
  call: ToolCallRow,
  entry: ToolEntry | undefined,
): Promise<void> {
  const timeoutMs = ctx.config.MCP_TOOL_TIMEOUT_MS
  let status: ToolCallRow['status']
  let result: string
  if (!entry) {
    status = 'failed'
    result = `There is no tool named ${call.name}. Use one of the tools listed.`
  } else {
    try {
      let timer: ReturnType<typeof setTimeout> | undefined
      const outcome = await Promise.race([
        callTool(ctx, entry.name, call.arguments, {
          scopes: turn.scopes,
          triggeredBy: turn.triggered_by,
          timeoutMs,
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('tool time limit')), timeoutMs + 1000)
        }),
      ]).finally(() => clearTimeout(timer))
      switch (outcome.status) {
        case 'ok':
          status = 'ok'
          result = boundResult(outcome.result)
          break
        case 'refused':
          status = 'refused'
          result = boundResult(`Refused by the tenant's tool permissions: ${outcome.message}`)
          break
        case 'invalid':
          status = 'invalid'
          result = boundResult(`Invalid arguments: ${outcome.message}`)
          break
        default:
          status = 'failed'
          result = boundResult(`The tool failed: ${outcome.message}`)
      }
    } catch (err) {
      status = 'failed'
      result =
        err instanceof Error && err.message === 'tool time limit'
          ? `The tool did not answer within ${timeoutMs} ms`
          : err instanceof ServiceError
            ? boundResult(`The tool failed: ${err.message}`)
            : 'The tool failed with an internal error'
      if (!(err instanceof ServiceError) && !(err instanceof Error && err.message === 'tool time limit'))
        ctx.logger.error('assistant tool call failed', { tool: call.tool, error: String(err) })
    }
  }
  const now = ctx.clock.now()
  await ctx.asOwner`
    update public.assistant_tool_calls set status = ${status}, result = ${result}, finished_at = ${now}
    where id = ${call.id} and tenant_id = ${turn.tenant_id}`
  emit(turn.id, 'tool_call.completed', { id: call.id, name: call.name, tool: call.tool, status, result })
}

/** The job: resumes the turn from what was stored and runs it to its end, a pause, or a limit. */
export async function runTurnJob({ deps, job }: JobRun): Promise<Json> {
  const turnId = String(job.input.turn_id)
  const turn = await loadTurn(deps.sql, turnId)
  if (turn?.status !== 'running') return { turn_id: turnId, status: turn?.status ?? 'deleted' }
  // As its creator with their role now, never as anyone else: a member who left ends their turns,
  // and an automation's turn needs its creator to still be an owner or admin.
  let caller: TenantCaller
  try {
    if (!turn.created_by) throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'The turn has no creator')
    caller = await actingCallerFor(
      deps.sql,
      turn.tenant_id,
      turn.created_by,
      turn.triggered_by === 'automation' ? managerRoles : undefined,
    )
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err
    await finishTurn(deps, turn, 'failed', `Not resumed: ${err.message}`)
    return { turn_id: turnId, status: 'failed' }
  }
  const ctx = serviceContextFor(deps, caller)
  try {
    await continueTurn(deps, ctx, turn)
  } catch (err) {
    ctx.logger.error('assistant turn failed', { turn_id: turn.id, error: String(err) })
    await finishTurn(deps, turn, 'failed', 'internal error')
  }
  const ended = await loadTurn(deps.sql, turnId)
  return { turn_id: turnId, status: ended?.status ?? 'deleted' }
}

async function continueTurn(deps: FunctionDeps, ctx: ServiceContext, turn: TurnRow): Promise<void> {
  const tenantId = turn.tenant_id
  const now = () => deps.clock.now()

  // A call that was running when an instance died is not run again (it may have written):
  // the model is told it was interrupted. Approved calls run now; denied ones are told as such.
  await deps.sql`
    update public.assistant_tool_calls
    set status = 'interrupted', finished_at = ${now()},
        result = 'The call was interrupted (the server stopped); it may or may not have taken effect'
    where tenant_id = ${tenantId} and turn_id = ${turn.id} and status = 'running'`

  // Hidden tools (disabled ones) are kept for finding a call by name, refused with the reason, but never offered.
  let tools = await listTools(ctx, turn.scopes, { includeHidden: true })
  const approved = await deps.sql<ToolCallRow[]>`
    update public.assistant_tool_calls set status = 'running'
    where tenant_id = ${tenantId} and turn_id = ${turn.id} and status = 'approved'
    returning *`
  const byAlias = (name: string) =>
    tools.find((t) => t.mcpName === name) ?? tools.find((t) => t.name === name)
  for (const call of approved)
    emit(turn.id, 'tool_call.started', {
      id: call.id,
      name: call.name,
      tool: call.tool,
      arguments: call.arguments,
    })
  await Promise.all(approved.map((call) => runToolCall(ctx, turn, call, byAlias(call.name))))

  let credentialKey: string | null = null
  let steps = turn.steps
  let turnInput = Number(turn.input_tokens)
  let turnOutput = Number(turn.output_tokens)
  while (true) {
    if (steps >= MAX_STEPS) {
      await finishTurn(deps, turn, 'stopped', `The turn reached its limit of ${MAX_STEPS} model calls`)
      return
    }
    // Before every model call, at once (they are independent): the credential (first step), the
    // history, the tenant's instructions, and which tools need approval. The quota follows, as a
    // reservation of the call's most tokens.
    const credentialPromise: Promise<string> = credentialKey
      ? Promise.resolve(credentialKey)
      : useCredential(deps, {
          tenantId,
          provider: turn.provider,
          environment: turn.credential_environment,
          callerKind: turn.triggered_by === 'automation' ? 'automation' : 'assistant',
          functionName: 'assistant',
        }).then((c): string => c.secret)
    const [credential, records, settingsRows, approvals] = await Promise.allSettled([
      credentialPromise,
      conversationRecords(deps.sql, tenantId, turn.conversation_id),
      deps.sql<{ instructions: string | null }[]>`
        select instructions from public.assistant_settings where tenant_id = ${tenantId}`,
      approvalRequired(deps.sql, tenantId),
    ])
    if (credential.status === 'rejected') {
      const err = credential.reason
      if (!(err instanceof CredentialUnavailableError)) throw err
      await finishTurn(deps, turn, 'failed', `No usable ${turn.provider} credential: ${err.message}`)
      return
    }
    for (const r of [records, settingsRows, approvals]) if (r.status === 'rejected') throw r.reason
    credentialKey = credential.value
    const { messages, calls } = (
      records as PromiseFulfilledResult<Awaited<ReturnType<typeof conversationRecords>>>
    ).value
    const settings = (settingsRows as PromiseFulfilledResult<{ instructions: string | null }[]>).value[0]
    const needsApproval = (approvals as PromiseFulfilledResult<Set<string>>).value
    const system = settings?.instructions
      ? `${SYSTEM_PROMPT}\n\nThe tenant's instructions:\n${settings.instructions}`
      : SYSTEM_PROMPT
    const history = historyFrom(messages, calls)
    const offered = modelTools(tools)
    // The quota holds under concurrent turns and automations: the call's most tokens are reserved
    // before it (a turn stops once they do not fit; Free refuses overage) and settled after it.
    let reservation: Reservation
    try {
      reservation = await reserveUsage(
        ctx,
        'assistant',
        inputTokenBound({ system, history, tools: offered }) + MAX_OUTPUT_TOKENS,
      )
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'QUOTA_EXCEEDED') {
        await finishTurn(deps, turn, 'stopped', `Stopped: ${err.message}`)
        return
      }
      throw err
    }
    let answer: Awaited<ReturnType<typeof streamModel>>
    try {
      answer = await streamModel({
        provider: turn.provider,
        baseUrl: turn.provider === 'anthropic' ? deps.config.ANTHROPIC_BASE_URL : deps.config.OPENAI_BASE_URL,
        apiKey: credentialKey,
        model: turn.model,
        system,
        history,
        tools: offered,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        timeoutMs: PROVIDER_TIMEOUT_MS,
        fetch: deps.fetch,
        onText: (text) => emit(turn.id, 'text.delta', { text }),
      })
    } catch (err) {
      // A refused or broken call reports no usage: nothing is counted, the reservation goes back.
      await settleReservation(ctx, reservation, 0)
      const failure = providerFailure(turn.provider, err, credentialKey)
      const reason =
        failure?.reason ?? `The model's answer broke off: ${err instanceof Error ? err.message : String(err)}`
      await finishTurn(deps, turn, 'failed', reason.slice(0, 1000))
      return
    }
    steps++

    // What the provider reports it spent replaces the reservation.
    await settleReservation(ctx, reservation, answer.inputTokens + answer.outputTokens)
    turnInput += answer.inputTokens
    turnOutput += answer.outputTokens
    const toolCalls = answer.toolCalls.slice(0, MAX_CALLS_PER_STEP)
    const stored = await deps.sql.begin(async (tx) => {
      await tx`
        update public.assistant_turns
        set steps = ${steps}, input_tokens = ${turnInput}, output_tokens = ${turnOutput}, updated_at = ${now()}
        where id = ${turn.id}`
      await tx`
        update public.assistant_conversations
        set input_tokens = input_tokens + ${answer.inputTokens}, output_tokens = output_tokens + ${answer.outputTokens},
            last_message_at = ${now()}, updated_at = ${now()}
        where id = ${turn.conversation_id} and tenant_id = ${tenantId}`
      const [message] = await tx<MessageRow[]>`
        insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content, created_at)
        values (${tenantId}, ${turn.conversation_id}, ${turn.id}, 'assistant', ${answer.text}, ${now()})
        returning id, conversation_id, turn_id, role, content, created_at`
      const rows: ToolCallRow[] = []
      for (const [position, c] of toolCalls.entries()) {
        const entry = byAlias(c.name)
        const waits = entry?.connection && needsApproval.has(`${entry.connection.id}|${entry.toolName}`)
        const [row] = await tx<ToolCallRow[]>`
          insert into public.assistant_tool_calls
            (tenant_id, conversation_id, turn_id, message_id, position, provider_call_id, name, tool, arguments,
             status, created_at)
          values (${tenantId}, ${turn.conversation_id}, ${turn.id}, ${message!.id}, ${position},
                  ${c.id.slice(0, 200) || `call_${position}`}, ${c.name.slice(0, 200) || 'unnamed'},
                  ${(entry?.name ?? c.name).slice(0, 200) || 'unnamed'}, ${tx.json(c.arguments as never)},
                  ${waits ? 'awaiting_approval' : 'running'}, ${now()})
          returning *`
        rows.push(row!)
      }
      return rows
    })
    emit(turn.id, 'usage', {
      input_tokens: answer.inputTokens,
      output_tokens: answer.outputTokens,
      turn: { input_tokens: turnInput, output_tokens: turnOutput },
    })
    if (stored.length === 0) {
      await finishTurn(deps, turn, 'completed', null)
      return
    }
    const runNow = stored.filter((c) => c.status === 'running')
    for (const c of stored)
      emit(turn.id, c.status === 'running' ? 'tool_call.started' : 'tool_call.approval_required', {
        id: c.id,
        name: c.name,
        tool: c.tool,
        arguments: c.arguments,
      })
    // Parallel calls run in parallel; each is stored as it ends.
    await Promise.all(runNow.map((c) => runToolCall(ctx, turn, c, byAlias(c.name))))
    if (stored.some((c) => c.status === 'awaiting_approval')) {
      await awaitApproval(deps, turn, stored, now())
      return
    }
    // A tool may have changed the tool set (a connection re-authorized, a tool list refreshed).
    tools = await listTools(ctx, turn.scopes, { includeHidden: true })
  }
}

// ---------------------------------------------------------------------------------------------
// Approvals.

/**
 * An owner's or admin's decision on a call that waits for approval. When no call of the turn
 * waits any more, the turn is queued again and the returned job runs it (on this instance, or on
 * any other through the sweep). A decided call is 409.
 */
export async function decideApproval(
  ctx: ServiceContext,
  conversationId: string,
  callId: string,
  decision: { approve: boolean; reason?: string },
): Promise<{ turnId: string; job: JobRow | null }> {
  const { caller } = ctx
  requireRole(caller, managerRoles)
  const [visible] = await ctx.asTenant(
    (tx) => tx<{ turn_id: string; status: string }[]>`
      select turn_id, status from public.assistant_tool_calls
      where id = ${callId} and conversation_id = ${conversationId} and tenant_id = ${caller.tenantId}`,
  )
  if (!visible) throw notFound('Tool call')
  const now = ctx.clock.now()
  return ctx.asOwner.begin(async (tx) => {
    const result = decision.approve
      ? null
      : `Denied by the tenant${decision.reason ? `: ${decision.reason}` : ''}. Do not retry this call.`
    const [decided] = await tx<{ turn_id: string }[]>`
      update public.assistant_tool_calls
      set status = ${decision.approve ? 'approved' : 'denied'}, decided_by = ${caller.userId}, decided_at = ${now},
          result = ${result}, finished_at = ${decision.approve ? null : now}
      where id = ${callId} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval'
      returning turn_id`
    if (!decided)
      throw new ServiceError('CONFLICT', `The tool call is not waiting for approval (${visible.status})`)
    const [waiting] = await tx`
      select 1 from public.assistant_tool_calls
      where turn_id = ${decided.turn_id} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval' limit 1`
    if (waiting) return { turnId: decided.turn_id, job: null }
    // Every call is decided: the turn runs again, as its creator, from what was stored.
    const [turn] = await tx<TurnRow[]>`
      update public.assistant_turns set status = 'running', updated_at = ${now}
      where id = ${decided.turn_id} and tenant_id = ${caller.tenantId} and status = 'awaiting_approval'
      returning *`
    if (!turn) return { turnId: decided.turn_id, job: null }
    const job = await enqueueJob(tx, {
      tenantId: caller.tenantId,
      kind: TURN_JOB_KIND,
      input: { turn_id: turn.id, conversation_id: conversationId, resumed: true },
      maxAttempts: 2,
      now,
    })
    // Resumed by the approver's decision: theirs, like a typed turn.
    await tx`update public.jobs set created_by = ${caller.userId} where id = ${job.id}`
    await tx`update public.assistant_turns set job_id = ${job.id} where id = ${turn.id}`
    return { turnId: turn.id, job }
  })
}

// ---------------------------------------------------------------------------------------------
// The engine and its sweep.

export const assistantEngine = engineFor({
  [TURN_JOB_KIND]: { handler: runTurnJob, maxAttempts: 2, leaseSeconds: TURN_LEASE_SECONDS },
})

/**
 * The sweep: turns whose instance stopped are resumed (the engine claims jobs whose lease ran
 * out), and turns whose job failed for good are marked failed.
 */
export async function sweepTurns(deps: FunctionDeps) {
  // Automations first: their turns run now, and the engine then finds nothing of theirs left.
  const { runDueAutomations } = await import('./automations.ts')
  const scheduled = await runDueAutomations(deps)
  const report = await assistantEngine(deps).runDue()
  const now = deps.clock.now()
  const failed = await deps.sql`
    update public.assistant_turns t
    set status = 'failed', error = coalesce(j.error, 'the turn stopped without finishing'),
        finished_at = ${now}, updated_at = ${now}
    from public.jobs j
    where j.id = t.job_id and t.status = 'running' and j.status in ('failed', 'succeeded')
    returning t.id`
  return { ...report, failed: report.failed + failed.length, scheduled }
}
