import Anthropic from '@anthropic-ai/sdk'
import type { GuardedFetch } from '@shared/infra/outbound.ts'
import OpenAI from 'openai'
import type { AiProvider } from '../generation/schema.ts'

/**
 * One streamed model call with tools, through the provider's official SDK (docs/adr/0007), with
 * our guarded fetch as its transport. The conversation is kept provider-neutral (HistoryItem) and
 * translated here, so the turn runner knows nothing of either wire format.
 */

export interface ToolCallRequest {
  /** The provider's id of the call (tool_call_id / tool_use id). */
  id: string
  name: string
  arguments: Record<string, unknown>
}

export type HistoryItem =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; results: { id: string; content: string; isError: boolean }[] }

export interface ModelTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface StreamCall {
  provider: AiProvider
  baseUrl: string
  apiKey: string
  model: string
  system: string
  history: HistoryItem[]
  tools: ModelTool[]
  maxOutputTokens: number
  timeoutMs: number
  fetch: GuardedFetch
  onText(delta: string): void
  /** Aborts the call under way, its stream included (Stop). */
  signal?: AbortSignal
}

export interface StreamAnswer {
  text: string
  toolCalls: ToolCallRequest[]
  inputTokens: number
  outputTokens: number
}

/** The model answered with tool arguments that are not a JSON object. */
const parseArguments = (raw: string): Record<string, unknown> => {
  if (!raw.trim()) return {}
  try {
    const v = JSON.parse(raw)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v }
  } catch {
    return { _unparsed: raw.slice(0, 2000) }
  }
}

function transport(call: StreamCall): typeof fetch {
  return ((url: string | URL, init?: RequestInit) =>
    call.fetch(url, {
      ...init,
      timeoutMs: call.timeoutMs,
      maxResponseBytes: 8 * 1024 * 1024,
      stream: true,
    })) as typeof fetch
}

/** The SDKs retry on their own by default; a turn reports a failure instead (maxRetries 0). */
export function streamModel(call: StreamCall): Promise<StreamAnswer> {
  return call.provider === 'anthropic' ? streamAnthropic(call) : streamOpenAi(call)
}

async function streamOpenAi(call: StreamCall): Promise<StreamAnswer> {
  const client = new OpenAI({
    apiKey: call.apiKey,
    baseURL: call.baseUrl,
    fetch: transport(call),
    maxRetries: 0,
    timeout: call.timeoutMs,
  })
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: call.system }]
  for (const item of call.history) {
    if (item.role === 'user') messages.push({ role: 'user', content: item.content })
    else if (item.role === 'assistant')
      messages.push({
        role: 'assistant',
        content: item.content || null,
        ...(item.toolCalls.length > 0 && {
          tool_calls: item.toolCalls.map((t) => ({
            id: t.id,
            type: 'function' as const,
            function: { name: t.name, arguments: JSON.stringify(t.arguments) },
          })),
        }),
      })
    else for (const r of item.results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.content })
  }
  const stream = await client.chat.completions.create(
    {
      model: call.model,
      max_tokens: call.maxOutputTokens,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(call.tools.length > 0 && {
        tools: call.tools.map((t) => ({
          type: 'function' as const,
          function: { name: t.name, description: t.description.slice(0, 1024), parameters: t.inputSchema },
        })),
      }),
    },
    { signal: call.signal },
  )
  let text = ''
  const calls = new Map<number, { id: string; name: string; args: string }>()
  let inputTokens = 0
  let outputTokens = 0
  for await (const chunk of stream) {
    if (chunk.usage) {
      inputTokens = chunk.usage.prompt_tokens ?? 0
      outputTokens = chunk.usage.completion_tokens ?? 0
    }
    const delta = chunk.choices?.[0]?.delta
    if (!delta) continue
    if (delta.content) {
      text += delta.content
      call.onText(delta.content)
    }
    // Tool calls arrive in pieces keyed by index: the id and name first, the arguments in fragments.
    for (const piece of delta.tool_calls ?? []) {
      const entry = calls.get(piece.index) ?? { id: '', name: '', args: '' }
      if (piece.id) entry.id = piece.id
      if (piece.function?.name) entry.name += piece.function.name
      if (piece.function?.arguments) entry.args += piece.function.arguments
      calls.set(piece.index, entry)
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([i, c]) => ({ id: c.id || `call_${i}`, name: c.name, arguments: parseArguments(c.args) }))
  return { text, toolCalls, inputTokens, outputTokens }
}

async function streamAnthropic(call: StreamCall): Promise<StreamAnswer> {
  const client = new Anthropic({
    apiKey: call.apiKey,
    baseURL: call.baseUrl,
    fetch: transport(call),
    maxRetries: 0,
    timeout: call.timeoutMs,
  })
  const messages: Anthropic.MessageParam[] = []
  for (const item of call.history) {
    if (item.role === 'user') messages.push({ role: 'user', content: item.content })
    else if (item.role === 'assistant') {
      const content: Anthropic.ContentBlockParam[] = []
      if (item.content) content.push({ type: 'text', text: item.content })
      for (const t of item.toolCalls)
        content.push({ type: 'tool_use', id: t.id, name: t.name, input: t.arguments })
      messages.push({ role: 'assistant', content: content.length > 0 ? content : '' })
    } else
      messages.push({
        role: 'user',
        content: item.results.map((r) => ({
          type: 'tool_result' as const,
          tool_use_id: r.id,
          content: r.content,
          ...(r.isError && { is_error: true }),
        })),
      })
  }
  const stream = await client.messages.create(
    {
      model: call.model,
      max_tokens: call.maxOutputTokens,
      system: call.system,
      messages,
      stream: true,
      ...(call.tools.length > 0 && {
        tools: call.tools.map((t) => ({
          name: t.name,
          description: t.description.slice(0, 1024),
          input_schema: { type: 'object' as const, ...t.inputSchema },
        })),
      }),
    },
    { signal: call.signal },
  )
  let text = ''
  const blocks = new Map<number, { id: string; name: string; args: string }>()
  let inputTokens = 0
  let outputTokens = 0
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        inputTokens = event.message.usage?.input_tokens ?? 0
        outputTokens = event.message.usage?.output_tokens ?? 0
        break
      case 'content_block_start':
        if (event.content_block.type === 'tool_use')
          blocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, args: '' })
        break
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') {
          text += event.delta.text
          call.onText(event.delta.text)
        } else if (event.delta.type === 'input_json_delta') {
          const block = blocks.get(event.index)
          if (block) block.args += event.delta.partial_json
        }
        break
      case 'message_delta':
        // Cumulative: the last message_delta carries the call's output tokens.
        if (event.usage?.output_tokens != null) outputTokens = event.usage.output_tokens
        if (event.usage?.input_tokens != null) inputTokens = event.usage.input_tokens
        break
    }
  }
  const toolCalls = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, b]) => ({ id: b.id, name: b.name, arguments: parseArguments(b.args) }))
  return { text, toolCalls, inputTokens, outputTokens }
}
