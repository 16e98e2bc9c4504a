import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TITLE_PROMPT } from '@shared/services/assistant/turn/title.ts'

/**
 * A scripted model provider on loopback that streams as the real ones do: OpenAI Chat Completions
 * (POST /v1/chat/completions, `data:` chunks ending with `data: [DONE]`, tool calls in fragments by
 * index, usage in the last chunk with stream_options.include_usage) and Anthropic Messages
 * (POST /v1/messages, named events message_start … message_stop, tool_use blocks with
 * input_json_delta). Each request takes the next reply of `script` (the last one repeats), except
 * a conversation's title request (its system prompt is TITLE_PROMPT), answered with `titleReply`
 * and recorded apart, so that scripts and request counts stay those of the turns. A request that
 * does not ask for a stream (the article generator's) gets the whole answer as JSON. A step may be
 * a function of the request's body: a reply that reads the tool results it was sent.
 */

interface ScriptedToolCall {
  name: string
  arguments: Record<string, unknown>
}

export interface ScriptedReply {
  text?: string
  toolCalls?: ScriptedToolCall[]
  usage?: { input: number; output: number }
  /** An error answer instead of a stream. */
  status?: 401 | 429 | 500 | 529
  /** Send the first half of the stream, then cut the connection. */
  breakMidStream?: boolean
  /** Hold the answer until this settles (a turn that is still running). */
  hold?: Promise<void>
  /** Stream this many chunks, then wait for `resume` before the rest (an answer under way). */
  pauseAfterChunks?: number
  resume?: Promise<void>
}

export type ScriptStep = ScriptedReply | ((body: Record<string, any>) => ScriptedReply)

export interface ScriptedLlm {
  url: string
  openaiBaseUrl: string
  anthropicBaseUrl: string
  key: string
  script: ScriptStep[]
  /** A new script, from its first reply. */
  reset(script: ScriptStep[]): void
  requests: { path: string; body: Record<string, any> }[]
  titleReply: ScriptedReply
  titleRequests: { path: string; body: Record<string, any> }[]
  /** Milliseconds between streamed chunks (benchmarks). */
  chunkDelayMs: number
  /** Resolves once `n` requests in all have arrived (an event, not a sleep). */
  waitForRequests(n: number): Promise<void>
  /** Resolves when a streamed answer reaches its pauseAfterChunks (the next one to, from now). */
  paused(): Promise<void>
  /** Streams the client closed before their end (a cut call). */
  cutByClient: number
  close(): Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (d) => (text += d))
    req.on('end', () => resolve(text))
  })

const pieces = (text: string) => {
  const words = text.match(/\S+\s*/g) ?? []
  return words.length > 0 ? words : text ? [text] : []
}

export async function startScriptedLlm(key = 'sk-test-assistant-key-0123456789'): Promise<ScriptedLlm> {
  const state: ScriptedLlm = {
    url: '',
    openaiBaseUrl: '',
    anthropicBaseUrl: '',
    key,
    script: [{ text: 'Done.' }],
    reset(script) {
      state.script = script
      served = 0
    },
    requests: [],
    titleReply: { text: 'Scripted title', usage: { input: 40, output: 3 } },
    titleRequests: [],
    chunkDelayMs: 0,
    paused: () => new Promise<void>((resolve) => pauseWaiters.push(resolve)),
    cutByClient: 0,
    waitForRequests: (n) =>
      new Promise<void>((resolve) => {
        if (state.requests.length >= n) return resolve()
        waiters.push({ n, resolve })
      }),
    close: async () => {},
  }
  const waiters: { n: number; resolve: () => void }[] = []
  const pauseWaiters: (() => void)[] = []
  let served = 0
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res
      .writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' })
      .end(JSON.stringify(body))

  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}')
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const system = typeof body.system === 'string' ? body.system : body.messages?.[0]?.content
    const titling = typeof system === 'string' && system.startsWith(TITLE_PROMPT)
    if (titling) state.titleRequests.push({ path, body })
    else state.requests.push({ path, body })
    for (const w of waiters.splice(0)) {
      if (state.requests.length >= w.n) w.resolve()
      else waiters.push(w)
    }
    const step = titling
      ? state.titleReply
      : (state.script[Math.min(served, state.script.length - 1)] ?? { text: 'Done.' })
    const reply = typeof step === 'function' ? step(body) : step
    if (!titling) served++
    if (reply.hold) await reply.hold
    const anthropic = path === '/v1/messages'
    const presented = anthropic
      ? (req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, ''))
      : req.headers.authorization?.replace(/^Bearer /, '')
    const status = presented !== state.key ? 401 : reply.status
    if (status) {
      const message =
        status === 401 ? 'invalid api key' : status === 429 ? 'rate limit reached' : 'the server had an error'
      return anthropic
        ? json(res, status, {
            type: 'error',
            error: {
              type:
                status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error',
              message,
            },
          })
        : json(res, status, { error: { message, type: 'error', param: null, code: null } })
    }
    if (path !== '/v1/chat/completions' && !anthropic)
      return json(res, 404, { error: { message: 'not found' } })

    const usage = reply.usage ?? { input: 100, output: 20 }
    if (!anthropic && body.stream !== true)
      return json(res, 200, {
        id: 'chatcmpl-scripted',
        object: 'chat.completion',
        created: 1_764_000_000,
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: reply.text ?? '' }, finish_reason: 'stop' },
        ],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const events = anthropic
      ? anthropicEvents(body.model, reply, usage)
      : openAiEvents(body.model, reply, usage)
    const cut = reply.breakMidStream ? Math.max(1, Math.floor(events.length / 2)) : events.length
    let ended = false
    res.on('close', () => {
      if (!ended) state.cutByClient++
    })
    for (const [i, e] of events.slice(0, cut).entries()) {
      if (i === reply.pauseAfterChunks) {
        for (const w of pauseWaiters.splice(0)) w()
        await reply.resume
        if (res.destroyed) return
      }
      res.write(e)
      if (state.chunkDelayMs) await new Promise((r) => setTimeout(r, state.chunkDelayMs))
    }
    ended = true
    if (reply.breakMidStream) return res.socket?.destroy()
    res.end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.openaiBaseUrl = `${state.url}/v1`
  state.anthropicBaseUrl = state.url
  state.close = () =>
    new Promise((r) => {
      server.closeAllConnections()
      server.close(() => r())
    })
  return state
}

function openAiEvents(
  model: string,
  reply: ScriptedReply,
  usage: { input: number; output: number },
): string[] {
  const base = { id: 'chatcmpl-scripted', object: 'chat.completion.chunk', created: 1_764_000_000, model }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
  const out = [chunk({ role: 'assistant', content: '' })]
  for (const p of pieces(reply.text ?? '')) out.push(chunk({ content: p }))
  ;(reply.toolCalls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.arguments)
    const half = Math.floor(args.length / 2)
    out.push(
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${index}_${call.name.slice(0, 8)}`,
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    )
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }))
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }))
  })
  out.push(chunk({}, reply.toolCalls?.length ? 'tool_calls' : 'stop'))
  out.push(
    `data: ${JSON.stringify({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    })}\n\n`,
  )
  out.push('data: [DONE]\n\n')
  return out
}

function anthropicEvents(
  model: string,
  reply: ScriptedReply,
  usage: { input: number; output: number },
): string[] {
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
  const out = [
    ev('message_start', {
      message: {
        id: 'msg_scripted',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    }),
  ]
  let index = 0
  if (reply.text) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }))
    for (const p of pieces(reply.text))
      out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }))
    out.push(ev('content_block_stop', { index }))
    index++
  }
  for (const call of reply.toolCalls ?? []) {
    const args = JSON.stringify(call.arguments)
    const half = Math.floor(args.length / 2)
    out.push(
      ev('content_block_start', {
        index,
        content_block: {
          type: 'tool_use',
          id: `toolu_${index}_${call.name.slice(0, 8)}`,
          name: call.name,
          input: {},
        },
      }),
    )
    out.push(
      ev('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: args.slice(0, half) },
      }),
    )
    out.push(
      ev('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: args.slice(half) },
      }),
    )
    out.push(ev('content_block_stop', { index }))
    index++
  }
  out.push(
    ev('message_delta', {
      delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  )
  out.push(ev('message_stop', {}))
  return out
}
