import { Agent, request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINGER_MAX_BYTES, LINGER_MS } from '../local-platform/listen.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * Answers sent before the request's body was read (a 413 from the body limit, a 401 before the
 * body is looked at) and the client's next request on its pooled keep-alive connection: the
 * answer says `Connection: close` (local-platform/listen.ts), so the client does not reuse a
 * socket that is about to close, and its next request succeeds.
 */
let tp: TestPlatform
beforeAll(async () => {
  tp = await startTestPlatform()
})
afterAll(async () => {
  await tp?.close()
})

interface Answer {
  status: number
  connection: string | undefined
  reusedSocket: boolean
}

/** One request through `agent` (keep-alive, one socket), the body sent in full as the client would. */
function send(
  agent: Agent,
  path: string,
  opts: { method?: string; body?: Buffer; headers?: Record<string, string> } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, tp.baseUrl),
      {
        method: opts.method ?? (opts.body ? 'POST' : 'GET'),
        agent,
        headers: { ...opts.headers, ...(opts.body && { 'content-length': String(opts.body.length) }) },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            reusedSocket: req.reusedSocket,
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

const json = { 'content-type': 'application/json' }
const tooLarge = () => Buffer.alloc(3 * 1024 * 1024, 'a') // MAX_BODY_BYTES is 1 MiB

describe('an answer sent before the body was read', () => {
  it('a 413 says Connection: close and the pooled client’s next request succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const refused = await send(agent, '/functions/v1/tenants', { body: tooLarge(), headers: json })
      expect(refused.status).toBe(413)
      expect(refused.connection).toBe('close')
      const next = await send(agent, '/health')
      expect(next.status).toBe(200)
      // And a connection whose request arrived in full stays open for the one after.
      expect(next.connection).toBe('keep-alive')
      expect((await send(agent, '/health')).reusedSocket).toBe(true)
    } finally {
      agent.destroy()
    }
  })

  it('the same through fetch’s connection pool', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await fetch(`${tp.baseUrl}/functions/v1/tenants`, {
        method: 'POST',
        headers: json,
        body: tooLarge(),
      })
      expect(refused.status).toBe(413)
      expect(refused.headers.get('connection')).toBe('close')
      expect((await refused.json()).code).toBe('PAYLOAD_TOO_LARGE')
      expect((await fetch(`${tp.baseUrl}/health`)).status).toBe(200)
    }
  })

  it('the local auth’s 413 and an early 401 close too; the next request succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const auth = await send(agent, '/auth/v1/signup', {
        body: Buffer.alloc(2 * 1024 * 1024, 'a'),
        headers: { ...json, apikey: tp.anonKey },
      })
      expect(auth.status).toBe(413)
      expect(auth.connection).toBe('close')
      expect((await send(agent, '/health')).status).toBe(200)

      // No token: refused before the (not JSON, so not pre-read) body is looked at.
      const early = await send(agent, '/functions/v1/content/articles', {
        body: Buffer.alloc(900 * 1024, 'a'),
        headers: { 'content-type': 'application/octet-stream' },
      })
      expect(early.status).toBe(401)
      expect((await send(agent, '/health')).status).toBe(200)
    } finally {
      agent.destroy()
    }
  })
})

/**
 * A raw HTTP/1.1 request whose body the client keeps writing, as fast as the socket takes it:
 * `bytes` in all, far more than the loopback socket buffers hold, so the client is still writing
 * when the answer goes out. It stops when the server ends its side (a client that read the whole
 * answer), unless `ignoreEnd` (a sender that never stops). Resolves with everything the server
 * sent, how much had been written when the answer began, and how writing ended.
 */
function sendWhileWriting(path: string, bytes: number, headers: Record<string, string>, ignoreEnd = false) {
  return new Promise<{ answer: string; writeError?: string; written: number; writtenWhenAnswered: number }>(
    (resolve) => {
      const url = new URL(path, tp.baseUrl)
      const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true })
      const received: Buffer[] = []
      let written = 0
      let writtenWhenAnswered = -1
      let serverEnded = false
      let writeError: string | undefined
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const pump = () => {
        while (written < bytes && !socket.destroyed && (ignoreEnd || !serverEnded)) {
          written += chunk.length
          if (!socket.write(chunk)) return void socket.once('drain', pump)
        }
        if (!socket.destroyed && (written >= bytes || serverEnded)) socket.end()
      }
      socket.on('connect', () => {
        const head = Object.entries({ host: url.host, 'content-length': String(bytes), ...headers })
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')
        socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n`)
        pump()
      })
      socket.on('data', (d) => {
        if (writtenWhenAnswered < 0) writtenWhenAnswered = written
        received.push(Buffer.from(d))
      })
      socket.on('end', () => {
        serverEnded = true
        if (!ignoreEnd) socket.end()
      })
      socket.on('error', (err: NodeJS.ErrnoException) => {
        writeError = err.code ?? err.message
      })
      socket.on('close', () =>
        resolve({
          answer: Buffer.concat(received).toString('latin1'),
          writeError,
          written,
          writtenWhenAnswered,
        }),
      )
    },
  )
}

/** The status and JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string): { status: number; body: { code?: string } } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0)
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4)
  return { status, body: body.startsWith('{') ? JSON.parse(body) : {} }
}

describe('a sender still writing when the 413 goes out reads the 413 (a lingering close)', () => {
  it('a 12 MB POST /v1/content/sites over a raw socket: no write fails, the 413 arrives', async () => {
    // 12 MB: more than the loopback socket buffers take, so the sender is still writing when the
    // 413 goes out; before the lingering close its writes failed with EPIPE after about 4 MB.
    const total = 12 * 1024 * 1024
    const { answer, writtenWhenAnswered, writeError } = await sendWhileWriting(
      '/v1/content/sites',
      total,
      json,
    )
    expect(writtenWhenAnswered).toBeLessThan(total)
    expect(writeError).toBeUndefined()
    const { status, body } = parseAnswer(answer)
    expect(status).toBe(413)
    expect(body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('fetch streaming an 8 MB signed commerce delivery gets the 413, not EPIPE', async () => {
    let produced = 0
    const total = 8 * 1024 * 1024
    const chunk = new Uint8Array(64 * 1024).fill(97)
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= total) return controller.close()
        produced += chunk.length
        controller.enqueue(chunk)
      },
    })
    const res = await fetch(`${tp.baseUrl}/functions/v1/commerce-webhook/`, {
      method: 'POST',
      headers: {
        ...json,
        'content-length': String(total),
        'x-shopify-topic': 'orders/create',
        'x-shopify-shop-domain': 'shop.example.com',
        'x-shopify-hmac-sha256': 'c2lnbmF0dXJl',
      },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe('PAYLOAD_TOO_LARGE')
    expect(produced).toBeLessThan(total) // refused while still sending
  })

  it('the linger is bounded: a sender that never stops is cut off, after its answer', async () => {
    const started = Date.now()
    const { answer, writeError, written } = await sendWhileWriting(
      '/v1/content/sites',
      1024 * 1024 * 1024,
      json,
      true,
    )
    expect(Date.now() - started).toBeLessThan(LINGER_MS + 2_000)
    expect(parseAnswer(answer).status).toBe(413)
    expect(written).toBeLessThan(1024 * 1024 * 1024)
    expect(written).toBeGreaterThan(LINGER_MAX_BYTES) // it did linger, reading more than buffers hold
    expect(writeError).toBeDefined()
  })
})
