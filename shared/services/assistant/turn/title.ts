import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { modelBaseUrl, useCredential } from '@shared/services/credentials/use-credential.ts'
import { reserveUsage, settleReservation } from '@shared/services/usage/metering.ts'
import { streamModel } from '../model.ts'
import type { MessageRow, TurnRow } from '../records.ts'
import { PROVIDER_TIMEOUT_MS } from './limits.ts'
import { inputTokenBound } from './shaping.ts'

/**
 * A conversation's title from its first exchange. The first message, shortened, titles it at once
 * (the local rule, store.ts); once the first turn completed, a short model call (no tools, a few
 * tokens, metered like any other call) names it from the question and the answer. Nothing
 * replaces a title a person set, and when the call cannot be made (quota, provider) the rule's
 * title stays.
 */

export const TITLE_PROMPT =
  'Give this conversation a short title (at most six words) that says what it is about. ' +
  'Answer with the title only: no quotes, no final period.'
const TITLE_MAX_OUTPUT_TOKENS = 24

/**
 * After a turn's answer went out (the answer never waits for it, nor counts its tokens): titles
 * the conversation when this was its first exchange. Never rejects.
 */
export async function titleAfterTurn(deps: FunctionDeps, ctx: ServiceContext, turnId: string): Promise<void> {
  const [turn] = await deps.sql<TurnRow[]>`select * from public.assistant_turns where id = ${turnId}`.catch(
    () => [],
  )
  if (!turn || turn.tenant_id !== ctx.caller.tenantId) return
  try {
    await titleNow(deps, ctx, turn)
  } catch (err) {
    ctx.logger.warn('assistant title: kept the first message as the title', {
      conversation_id: turn.conversation_id,
      error: err instanceof Error ? err.message : String(err),
    })
  }
}

async function titleNow(deps: FunctionDeps, ctx: ServiceContext, turn: TurnRow): Promise<void> {
  const [state] = await deps.sql<{ title_source: string; status: string; turns: number }[]>`
    select c.title_source, t.status,
           (select count(*)::int from public.assistant_turns o
            where o.tenant_id = c.tenant_id and o.conversation_id = c.id) as turns
    from public.assistant_conversations c
    join public.assistant_turns t on t.id = ${turn.id} and t.tenant_id = c.tenant_id
    where c.id = ${turn.conversation_id} and c.tenant_id = ${turn.tenant_id}`
  if (state?.title_source !== 'rule' || state.status !== 'completed' || state.turns !== 1) return
  const messages = await deps.sql<Pick<MessageRow, 'role' | 'content'>[]>`
    select role, content from public.assistant_messages
    where tenant_id = ${turn.tenant_id} and conversation_id = ${turn.conversation_id} and content <> ''
    order by seq limit 6`
  const exchange = messages.map(
    (m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.content.slice(0, 2000)}`,
  )
  const history = [{ role: 'user' as const, content: exchange.join('\n\n') }]
  const reservation = await reserveUsage(
    ctx,
    'assistant',
    inputTokenBound({ system: TITLE_PROMPT, history, tools: [] }) + TITLE_MAX_OUTPUT_TOKENS,
  )
  let spent = 0
  let text = ''
  try {
    const credential = await useCredential(deps, {
      tenantId: turn.tenant_id,
      provider: turn.provider,
      environment: turn.credential_environment,
      callerKind: turn.triggered_by === 'automation' ? 'automation' : 'assistant',
      functionName: 'assistant',
    })
    const answer = await streamModel({
      provider: turn.provider,
      baseUrl: modelBaseUrl(deps.config, turn.provider, credential),
      apiKey: credential.secret,
      model: turn.model,
      system: TITLE_PROMPT,
      history,
      tools: [],
      maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
      timeoutMs: PROVIDER_TIMEOUT_MS,
      fetch: deps.fetch,
      onText: () => {},
    })
    spent = answer.inputTokens + answer.outputTokens
    text = answer.text
    await deps.sql`
        update public.assistant_conversations
        set input_tokens = input_tokens + ${answer.inputTokens}, output_tokens = output_tokens + ${answer.outputTokens},
            title = coalesce(${cleanTitle(text)}, title),
            title_source = case when ${cleanTitle(text)}::text is null then title_source else 'model' end
        where id = ${turn.conversation_id} and tenant_id = ${turn.tenant_id} and title_source = 'rule'`
  } finally {
    await settleReservation(ctx, reservation, spent)
  }
}

/** The model's answer as a title: its first line, without quotes or a final period; null if empty. */
function cleanTitle(text: string): string | null {
  const line = (text.split('\n').find((l) => l.trim()) ?? '')
    .replace(/^\s*(title\s*:\s*)?/i, '')
    .replace(/^["'“”‘’`*#\s]+|["'“”‘’`*\s.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return line ? line.slice(0, 80) : null
}
