import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
