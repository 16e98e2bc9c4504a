import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Loopback stand-ins for the OpenAI Chat Completions API (POST /v1/chat/completions, Bearer key)
 * and the Anthropic Messages API (POST /v1/messages, x-api-key), answering with their documented
 * bodies, usage included, and their documented error bodies. `mode` picks the answer.
 */
type LlmMode = 'ok' | 'unauthorized' | 'rate_limited' | 'server_error'

export interface LlmServer {
  url: string
  /** OPENAI_BASE_URL for the SDK (ends in /v1). */
  openaiBaseUrl: string
  /** ANTHROPIC_BASE_URL for the SDK (the SDK adds /v1/messages). */
  anthropicBaseUrl: string
  key: string
  mode: LlmMode
  /** Added to each answer (ms): for measuring the provider call alone. */
  delayMs: number
  /** A careless OpenAI-compatible proxy: its 401 message repeats the Authorization header it got. */
  echoAuthorization: boolean
  usage: { input: number; output: number }
  requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, any> }[]
  close(): Promise<void>
}

const ARTICLE =
  '# What the week brought\n\nThree posts, one story: the sources agree on the essentials.\n\nMore below.'

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (d) => (text += d))
    req.on('end', () => resolve(text))
  })

export async function startLlmServer(key = 'sk-test-provider-key-0123456789'): Promise<LlmServer> {
  const state: LlmServer = {
    url: '',
    openaiBaseUrl: '',
    anthropicBaseUrl: '',
    key,
    mode: 'ok',
    delayMs: 0,
    echoAuthorization: false,
    usage: { input: 120, output: 80 },
    requests: [],
    close: async () => {},
  }
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))

  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}')
    const path = new URL(req.url ?? '/', 'http://x').pathname
    state.requests.push({ path, headers: req.headers, body })
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs))
    if (path === '/v1/chat/completions') {
      const authorized = req.headers.authorization === `Bearer ${state.key}` && state.mode !== 'unauthorized'
      if (!authorized)
        return json(res, 401, {
          error: {
            message: state.echoAuthorization
              ? `Request refused for ${req.headers.authorization}`
              : 'Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        })
      if (state.mode === 'rate_limited')
        return json(
          res,
          429,
          {
            error: {
              message: 'Rate limit reached for requests',
              type: 'requests',
              param: null,
              code: 'rate_limit_exceeded',
            },
          },
          { 'retry-after': '1' },
        )
      if (state.mode === 'server_error')
        return json(res, 500, {
          error: {
            message: 'The server had an error while processing your request.',
            type: 'server_error',
            param: null,
            code: null,
          },
        })
      return json(res, 200, {
        id: 'chatcmpl-abc123',
        object: 'chat.completion',
        created: 1_763_888_888,
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: ARTICLE, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: {
          prompt_tokens: state.usage.input,
          completion_tokens: state.usage.output,
          total_tokens: state.usage.input + state.usage.output,
        },
      })
    }
    if (path === '/v1/messages') {
      // The documented header is x-api-key; the current SDK sends the key as a Bearer token, which the API also takes.
      const presented = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '')
      const authorized = presented === state.key && state.mode !== 'unauthorized'
      if (!authorized)
        return json(res, 401, {
          type: 'error',
          error: { type: 'authentication_error', message: 'invalid x-api-key' },
        })
      if (state.mode === 'rate_limited')
        return json(
          res,
          429,
          {
            type: 'error',
            error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
          },
          { 'retry-after': '1' },
        )
      if (state.mode === 'server_error')
        return json(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
      return json(res, 200, {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text: ARTICLE }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: state.usage.input, output_tokens: state.usage.output },
      })
    }
    return json(res, 404, { error: { message: 'not found' } })
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
