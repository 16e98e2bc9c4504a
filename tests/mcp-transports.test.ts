import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * The tool server's two MCP transports with the official SDK client: Streamable HTTP at {mcp_url}
 * and HTTP+SSE at {mcp_url}/sse with the stream on one instance and the POSTs on the other.
 */

let tp: TestPlatform
let a: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:05.000Z'))

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock, env: { MCP_SSE_HEARTBEAT_MS: '200' } })
  a = await tp.createTenant()
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${a.tenantId}, 'A site')`
}, setupTimeout())
afterAll(() => tp.close())

async function toolKey(
  t: TestTenant,
  scopes = ['content:read', 'content:write'],
  environment = 'development',
) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: { name: 'agent', kind: 'tool_server', environment, scopes, rate_limit_per_minute: 100 },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; key: string }
}

/** A fetch that sends every POST to instance 1, whatever instance the URL names. */
const postsToSecondInstance: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if ((init?.method ?? 'GET').toUpperCase() === 'POST') {
    const other = new URL(tp.instances[1]!.baseUrl)
    url.host = other.host
  }
  return fetch(url, init)
}

async function sessionCount(): Promise<number> {
  const [row] = await tp.db.sql<{ n: number }[]>`select count(*)::int as n from private.mcp_sse_sessions`
  return row!.n
}

describe('MCP over Streamable HTTP at {mcp_url}', () => {
  it('lists and calls tools with the SDK client, with X-API-Key and with Bearer', async () => {
    const { key } = await toolKey(a)
    const forms: Record<string, string>[] = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]
    for (const headers of forms) {
      const client = new Client({ name: 'test', version: '1.0.0' })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), { requestInit: { headers } }),
      )
      const { tools } = await client.listTools()
      const names = tools.map((t) => t.name)
      expect(names).toEqual(
        expect.arrayContaining([
          'platform__list_content',
          'platform__create_draft',
          'platform__publish_article',
        ]),
      )
      for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
      const result = await client.callTool({ name: 'platform__list_content', arguments: { type: 'site' } })
      expect(result.isError).toBeFalsy()
      expect((result.structuredContent as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
        'A site',
      ])
      // The REST name is accepted too.
      const same = await client.callTool({ name: 'platform:list_content', arguments: { type: 'site' } })
      expect(same.structuredContent).toEqual(result.structuredContent)
      await client.close()
    }
  })

  it('creates a draft and publishes it as tools, gated by the key scopes', async () => {
    const { key } = await toolKey(a)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), {
        requestInit: { headers: { 'x-api-key': key } },
      }),
    )
    const site = (await client.callTool({ name: 'platform__list_content', arguments: { type: 'site' } }))
      .structuredContent as { items: { id: string }[] }
    const draft = await client.callTool({
      name: 'platform__create_draft',
      arguments: { site_id: site.items[0]!.id, title: 'Hello' },
    })
    const article = draft.structuredContent as { id: string; status: string }
    expect(article.status).toBe('draft')
    const published = await client.callTool({
      name: 'platform__publish_article',
      arguments: { article_id: article.id },
    })
    expect((published.structuredContent as { status: string }).status).toBe('published')
    const got = await client.callTool({
      name: 'platform__get_content',
      arguments: { type: 'article', id: article.id },
    })
    expect((got.structuredContent as { title: string }).title).toBe('Hello')
    await client.close()

    const readOnly = await toolKey(a, ['content:read'])
    const ro = new Client({ name: 'test', version: '1.0.0' })
    await ro.connect(
      new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), {
        requestInit: { headers: { 'x-api-key': readOnly.key } },
      }),
    )
    expect((await ro.listTools()).tools.map((t) => t.name)).not.toContain('platform__create_draft')
    const refused = await ro.callTool({
      name: 'platform__create_draft',
      arguments: { site_id: site.items[0]!.id, title: 'x' },
    })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain('content:write')
    await ro.close()
  })

  it('answers bad input with the JSON-RPC or HTTP error the specifications define', async () => {
    const { key } = await toolKey(a)
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${tp.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      })
    const parse = await post('{not json')
    expect(parse.status).toBe(400)
    expect((await parse.json()).error.code).toBe(-32700)
    const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]))
    expect(batch.status).toBe(400)
    expect((await batch.json()).error.code).toBe(-32600)
    const unknownMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'nope/nothing' }))
    expect((await unknownMethod.json()).error.code).toBe(-32601)
    const unknownTool = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'no__such', arguments: {} },
      }),
    )
    expect((await unknownTool.json()).error.code).toBe(-32602)
    const badParams = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'platform__list_content', arguments: { limit: 'many' } },
      }),
    )
    const badBody = await badParams.json()
    expect(badBody.result.isError).toBe(true)
    expect(badBody.result.structuredContent.details[0].field).toBe('params.limit')
    const notAccepting = await post(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }), {
      accept: 'application/json',
    })
    expect(notAccepting.status).toBe(406)
    // GET and DELETE: no server stream, no sessions (405, as the specification allows).
    expect((await fetch(`${tp.baseUrl}/mcp`, { headers: { 'x-api-key': key } })).status).toBe(405)
    expect(
      (await fetch(`${tp.baseUrl}/mcp`, { method: 'DELETE', headers: { 'x-api-key': key } })).status,
    ).toBe(405)
    // Last: the server answers 413 without reading the rest and closes the connection.
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { x: 'y'.repeat(2_000_000) } }),
      { connection: 'close' },
    )
    expect(huge.status).toBe(413)
  })

  it('refuses missing and wrong credentials with 401 and foreign origins with 403', async () => {
    const { key } = await toolKey(a)
    for (const path of ['/mcp', '/mcp/sse', '/mcp/tools/list']) {
      const none = await tp.json(path, { headers: { accept: 'text/event-stream' } })
      expect([path, none.status, none.body.code]).toEqual([path, 401, 'AUTH_REQUIRED'])
    }
    expect(
      (await tp.json('/mcp', { method: 'POST', headers: { authorization: `Bearer ${a.token}` }, body: {} }))
        .status,
    ).toBe(401)
    const foreign = await tp.json('/mcp/tools/list', {
      headers: { 'x-api-key': key, origin: 'https://evil.example' },
    })
    expect([foreign.status, foreign.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
  })
})

describe('MCP over HTTP+SSE at {mcp_url}/sse', () => {
  it('serves the SDK client with the stream on instance 0 and every POST on instance 1', async () => {
    const { key } = await toolKey(a)
    const posts: string[] = []
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(
      new SSEClientTransport(new URL(`${tp.instances[0]!.baseUrl}/mcp/sse`), {
        requestInit: { headers: { 'x-api-key': key } },
        eventSourceInit: { fetch: (u, i) => fetch(u, i) },
        fetch: (u, i) => {
          posts.push(String(u))
          return postsToSecondInstance(u, i)
        },
      }),
    )
    expect(await sessionCount()).toBe(1)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('platform__list_content')
    const result = await client.callTool({ name: 'platform__list_content', arguments: { type: 'site' } })
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(1)
    expect(posts.length).toBeGreaterThanOrEqual(3)
    for (const p of posts) expect(p).toMatch(/\/mcp\/sse\/messages\?sessionId=[0-9a-f-]{36}$/)
    await client.close()
    await expect.poll(sessionCount, { timeout: 5000 }).toBe(0)
  })

  it('sends heartbeats, refuses other keys and unknown sessions, and leaves no session when killed', async () => {
    const { key } = await toolKey(a)
    const other = await toolKey(a)
    const abort = new AbortController()
    const res = await fetch(`${tp.instances[0]!.baseUrl}/mcp/sse`, {
      headers: { 'x-api-key': key, accept: 'text/event-stream' },
      signal: abort.signal,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const reader = res.body!.getReader()
    let text = ''
    while (!text.includes(': ping')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text.startsWith('event: endpoint\ndata: sse/messages?sessionId=')).toBe(true)
    const sessionId = text.match(/sessionId=([0-9a-f-]{36})/)![1]!
    expect(await sessionCount()).toBe(1)

    const url = `${tp.instances[1]!.baseUrl}/mcp/sse/messages?sessionId=${sessionId}`
    const msg = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const post = (k: string, u = url, body = msg) =>
      fetch(u, { method: 'POST', headers: { 'x-api-key': k, 'content-type': 'application/json' }, body })
    expect((await post(other.key)).status).toBe(404)
    expect((await post(key, url.replace(sessionId, crypto.randomUUID()))).status).toBe(404)
    expect((await post(key, url.replace(sessionId, 'nope'))).status).toBe(400)
    const garbage = await post(key, url, '{"jsonrpc":')
    expect([garbage.status, (await garbage.json()).error.code]).toEqual([400, -32700])
    expect((await post(key)).status).toBe(202)
    while (!text.includes('event: message')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toContain('"platform__list_content"')

    abort.abort()
    await expect.poll(sessionCount, { timeout: 5000 }).toBe(0)
    // The session is gone: its id is refused now.
    expect((await post(key)).status).toBe(404)
  })

  it('closes before the wall-clock limit and removes its session; the SDK client reconnects', async () => {
    const short = await startTestPlatform({ env: { MCP_SSE_MAX_STREAM_MS: '3000' } })
    try {
      const t = await short.createTenant()
      const res = await short.json('/api/api-keys', {
        token: t.token,
        body: {
          name: 'k',
          kind: 'tool_server',
          environment: 'development',
          scopes: ['content:read'],
          rate_limit_per_minute: 100,
        },
      })
      const stream = await fetch(`${short.baseUrl}/mcp/sse`, {
        headers: { 'x-api-key': res.body.key, accept: 'text/event-stream' },
      })
      const started = Date.now()
      const body = await stream.text() // ends when the server closes the stream
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900)
      expect(body).toContain('event: endpoint')
      const [row] = await short.db.sql<
        { n: number }[]
      >`select count(*)::int as n from private.mcp_sse_sessions`
      expect(row!.n).toBe(0)
      // The SDK client's EventSource reconnects; the new endpoint event names a new session.
      const client = new Client({ name: 'test', version: '1.0.0' })
      await client.connect(
        new SSEClientTransport(new URL(`${short.baseUrl}/mcp/sse`), {
          requestInit: { headers: { 'x-api-key': res.body.key } },
        }),
      )
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      // The server closes this stream at its 3 s limit; the client's EventSource reconnects and
      // opens a session of its own. Waited for as that event (a new session row), not a sleep.
      const sessionIds = async () =>
        (await short.db.sql<{ id: string }[]>`select id from private.mcp_sse_sessions`).map((r) => r.id)
      const [first] = await sessionIds()
      expect(first).toBeDefined()
      await expect
        .poll(async () => (await sessionIds()).some((id) => id !== first), { timeout: 20_000 })
        .toBe(true)
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      await client.close()
    } finally {
      await short.close()
    }
  }, 120_000)
})

describe('the tool-server limit over all three forms', () => {
  it('admits exactly 100 per minute across two instances, and tells an SSE stream the wait', async (ctx) => {
    needsRealConcurrency(ctx)
    clock.advance(60_000)
    const { key } = await toolKey(a)
    const headers = { 'x-api-key': key }
    // The stream's own GET is one request.
    const abort = new AbortController()
    const res = await fetch(`${tp.instances[0]!.baseUrl}/mcp/sse`, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: abort.signal,
    })
    const reader = res.body!.getReader()
    let text = ''
    while (!text.includes('sessionId=')) text += new TextDecoder().decode((await reader.read()).value)
    const sessionId = text.match(/sessionId=([0-9a-f-]{36})/)![1]!
    const rpc = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })
    const calls = Array.from({ length: 119 }, (_, i) => {
      const base = tp.instances[i % 2]!.baseUrl
      switch (i % 3) {
        case 0:
          return fetch(`${base}/mcp`, {
            method: 'POST',
            headers: {
              ...headers,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: rpc(i),
          })
        case 1:
          return fetch(`${base}/mcp/tools/list`, { headers })
        default:
          return fetch(`${base}/mcp/sse/messages?sessionId=${sessionId}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: rpc(i),
          })
      }
    })
    const statuses = (await Promise.all(calls)).map((r) => r.status)
    expect(statuses.filter((s) => s === 200 || s === 202)).toHaveLength(99)
    expect(statuses.filter((s) => s === 429)).toHaveLength(20)
    // The refused SSE requests get a JSON-RPC error carrying the wait on the stream.
    while (!text.includes('RATE_LIMITED')) text += new TextDecoder().decode((await reader.read()).value)
    const event = text
      .split('\n\n')
      .find((e) => e.includes('RATE_LIMITED'))!
      .split('\n')
      .find((l) => l.startsWith('data: '))!
    const error = JSON.parse(event.slice(6)).error
    expect(error.code).toBe(-32029)
    expect(error.data.retryAfter).toBeGreaterThan(0)
    abort.abort()
  })
})
