import Anthropic from '@anthropic-ai/sdk'
import type { GuardedFetch } from '@shared/infra/outbound.ts'
import { Redactor } from '@shared/infra/redaction.ts'
import OpenAI from 'openai'
import type { AiProvider } from './schema.ts'

/** One model call through the provider's official SDK, with our guarded fetch as its transport. */
export interface ModelCall {
  provider: AiProvider
  baseUrl: string
  apiKey: string
  model: string
  system: string
  prompt: string
  maxOutputTokens: number
  timeoutMs: number
  fetch: GuardedFetch
  /** Aborts the call under way (an MCP task cancelled: docs/mcp.md "Tasks"). */
  signal?: AbortSignal
}

export interface ModelAnswer {
  text: string
  inputTokens: number
  outputTokens: number
  model: string
}

/** The SDKs retry on their own by default; the job engine does it with backoff instead (maxRetries 0). */
export async function callModel(call: ModelCall): Promise<ModelAnswer> {
  const transport = ((url: string | URL, init?: RequestInit) =>
    call.fetch(url, {
      ...init,
      timeoutMs: call.timeoutMs,
      maxResponseBytes: 4 * 1024 * 1024,
    })) as typeof fetch
  if (call.provider === 'anthropic') {
    const client = new Anthropic({
      apiKey: call.apiKey,
      baseURL: call.baseUrl,
      fetch: transport,
      maxRetries: 0,
      timeout: call.timeoutMs,
    })
    const message = await client.messages.create(
      {
        model: call.model,
        max_tokens: call.maxOutputTokens,
        system: call.system,
        messages: [{ role: 'user', content: call.prompt }],
      },
      { signal: call.signal },
    )
    return {
      text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
      inputTokens: message.usage?.input_tokens ?? 0,
      outputTokens: message.usage?.output_tokens ?? 0,
      model: message.model,
    }
  }
  const client = new OpenAI({
    apiKey: call.apiKey,
    baseURL: call.baseUrl,
    fetch: transport,
    maxRetries: 0,
    timeout: call.timeoutMs,
  })
  const completion = await client.chat.completions.create(
    {
      model: call.model,
      max_tokens: call.maxOutputTokens,
      messages: [
        { role: 'system', content: call.system },
        { role: 'user', content: call.prompt },
      ],
    },
    { signal: call.signal },
  )
  return {
    text: completion.choices[0]?.message?.content ?? '',
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
    model: completion.model,
  }
}

/** An SDK error as the job's reason, transient or not (a rejected key is not; a 429, 5xx or time-out is). */
export function providerFailure(
  provider: AiProvider,
  err: unknown,
  /** The key the call was made with: a provider's message that repeats it does not pass it on. */
  apiKey: string | null,
): { reason: string; transient: boolean; retryAfterMs?: number } | null {
  const failure = readProviderFailure(provider, err)
  return failure && { ...failure, reason: new Redactor().add(apiKey).text(failure.reason) }
}

function readProviderFailure(
  provider: AiProvider,
  err: unknown,
): { reason: string; transient: boolean; retryAfterMs?: number } | null {
  const name = provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible API'
  const isTimeout =
    err instanceof OpenAI.APIConnectionTimeoutError || err instanceof Anthropic.APIConnectionTimeoutError
  const cause = (err as { cause?: { name?: string; kind?: string; message?: string } })?.cause
  if (isTimeout || cause?.kind === 'timeout') return { reason: `${name} timed out`, transient: true }
  if (cause?.name === 'OutboundBlockedError') return { reason: `${name}: ${cause.message}`, transient: false }
  if (err instanceof OpenAI.APIConnectionError || err instanceof Anthropic.APIConnectionError)
    return {
      reason: `${name} could not be reached: ${cause?.message ?? (err as Error).message}`,
      transient: true,
    }
  if (err instanceof OpenAI.APIError || err instanceof Anthropic.APIError) {
    const status = err.status ?? 0
    const detail = err.message.slice(0, 300)
    const after = Number(err.headers?.get?.('retry-after'))
    const retryAfterMs = Number.isFinite(after) && after > 0 ? Math.min(after, 600) * 1000 : undefined
    if (status === 401 || status === 403)
      return { reason: `${name} rejected the API key (${status}): ${detail}`, transient: false }
    if (status === 429)
      return { reason: `${name} is rate limiting (429): ${detail}`, transient: true, retryAfterMs }
    if (status >= 500)
      return { reason: `${name} failed (${status}): ${detail}`, transient: true, retryAfterMs }
    return { reason: `${name} refused the request (${status}): ${detail}`, transient: false }
  }
  return null
}
