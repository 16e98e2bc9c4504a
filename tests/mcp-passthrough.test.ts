import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVER_CAPABILITIES } from '../functions/mcp-sse/mcp-server.ts'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * Resources and prompts of connected MCP servers, passed through the tool server over real HTTP:
 * the reference server (`server-everything`, behind its auth proxy on loopback) is connected as a
 * tenant's custom MCP integration, and an SDK client reads its resources and prompts at {mcp_url}
 * under the connection's prefix, refused by the connection's permissions, logged, never seen by
 * another tenant, and a clear error when the server is down.
 */

let tp: TestPlatform
let everything: McpTestServer
let a: TestTenant
let b: TestTenant
let aConnection: string
let aKey: string
let bKey: string
let siteId: string
const TOKEN = 'passthrough-bearer-token-0123456789'
const DOC = 'demo://resource/static/document/architecture.md'

async function connectMcp(t: TestTenant, url: string, token = TOKEN) {
  const res = await tp.json('/api/integrations/connect', {
    token: t.token,
    body: {
      integration_id: integrationBySlug('custom-mcp')!.integration_id,
      connection_type: 'mcp',
      mcp_server_url: url,
      mcp_auth_type: 'bearer',
      mcp_auth_token: token,
      display_name: 'Everything',
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id as string
}

async function toolKey(t: TestTenant, scopes = ['content:read']) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes,
      rate_limit_per_minute: 100,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

async function mcpClient(key: string) {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), {
      requestInit: { headers: { 'x-api-key': key } },
    }),
  )
  return client
}

const usage = (connectionId: string) =>
  tp.db.sql<{ tool_name: string; action: string; triggered_by: string; user_id: string; success: boolean }[]>`
    select tool_name, action, triggered_by, user_id, success from public.integration_usage
    where connection_id = ${connectionId} and tool_name <> 'tools/list' order by created_at, id`

const failure = (p: Promise<unknown>) => p.then(() => null).catch((e: Error & { code?: number }) => e)

beforeAll(async () => {
  everything = await startMcpServer({ transport: 'streamableHttp', auth: { type: 'bearer', token: TOKEN } })
  tp = await startTestPlatform({ env: { MCP_TOOL_TIMEOUT_MS: '3000' } })
  a = await tp.createTenant()
  b = await tp.createTenant()
  const [site] = await tp.db.sql<{ id: string }[]>`
    insert into public.sites (tenant_id, name) values (${a.tenantId}, 'Own site') returning id`
  siteId = site!.id
  aConnection = await connectMcp(a, everything.url)
  aKey = await toolKey(a)
  bKey = await toolKey(b)
}, setupTimeout())
afterAll(async () => {
  await everything?.close()
  await tp?.close()
})

describe('resources and prompts of a connected MCP server', () => {
  it('advertises exactly the capabilities it serves, not the connected server ones', async () => {
    // The connected server offers resource subscriptions; the stateless tool server cannot.
    const direct = new Client({ name: 'direct', version: '1.0.0' })
    await direct.connect(
      new StreamableHTTPClientTransport(new URL(everything.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    )
    expect(direct.getServerCapabilities()?.resources?.subscribe).toBe(true)
    await direct.close()
    const client = await mcpClient(aKey)
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      logging: {},
      // Tasks (ADR 0044) are answered by the tool server itself on 2025-11-25, this client's revision.
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    })
    const { tasks: _tasks, ...served } = client.getServerCapabilities()!
    expect(SERVER_CAPABILITIES).toEqual(served)
    await client.close()
  })

  it('lists them under the connection prefix next to the platform own, and reads and gets them', async () => {
    const client = await mcpClient(aKey)
    const before = (await usage(aConnection)).length
    const listed = await client.listResources()
    expect(listed.nextCursor).toBeUndefined()
    const uris = listed.resources.map((r) => r.uri)
    expect(uris).toContain(`platform://sites/${siteId}`)
    expect(uris).toContain(`custom-mcp+${DOC}`)
    expect(
      uris.filter((u) => !u.startsWith('platform://')).every((u) => u.startsWith('custom-mcp+demo://')),
    ).toBe(true)
    expect(listed.resources.find((r) => r.uri === `custom-mcp+${DOC}`)!.name).toBe(
      'custom-mcp__architecture.md',
    )

    const read = await client.readResource({ uri: `custom-mcp+${DOC}` })
    expect(read.contents).toHaveLength(1)
    expect(read.contents[0]!.uri).toBe(`custom-mcp+${DOC}`)
    expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(20)

    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
    expect(templates).toEqual(
      expect.arrayContaining([
        'platform://sites/{site_id}',
        'custom-mcp+demo://resource/dynamic/text/{resourceId}',
      ]),
    )
    const fromTemplate = await client.readResource({ uri: 'custom-mcp+demo://resource/dynamic/text/3' })
    expect(fromTemplate.contents[0]!.uri).toBe('custom-mcp+demo://resource/dynamic/text/3')
    expect((fromTemplate.contents[0] as { text: string }).text).toContain('3')

    const prompts = (await client.listPrompts()).prompts.map((p) => p.name)
    expect(prompts).toEqual(
      expect.arrayContaining([
        'draft_article',
        'review_article',
        'custom-mcp__simple-prompt',
        'custom-mcp__args-prompt',
      ]),
    )
    const prompt = await client.getPrompt({ name: 'custom-mcp__args-prompt', arguments: { city: 'Lyon' } })
    expect(JSON.stringify(prompt.messages)).toContain("What's weather in Lyon?")
    // An embedded resource names the prefixed URI, which reads through the same connection.
    const embedded = await client.getPrompt({
      name: 'custom-mcp__resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '2' },
    })
    const block = embedded.messages.find((m) => m.content.type === 'resource')!.content as {
      resource: { uri: string }
    }
    expect(block.resource.uri).toBe('custom-mcp+demo://resource/dynamic/text/2')
    // Completions of its prompts' arguments come from the server.
    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'custom-mcp__resource-prompt' },
      argument: { name: 'resourceType', value: 'T' },
    })
    expect(completed.completion.values).toEqual(['Text'])
    // A server's own error answer comes back with its code and the connection's name.
    const missing = await failure(client.getPrompt({ name: 'custom-mcp__no-such-prompt' }))
    expect(missing?.code).toBe(-32602)
    expect(missing?.message).toContain('custom-mcp: the MCP server answered')
    await client.close()

    const log = (await usage(aConnection)).slice(before)
    expect(log.map((l) => [l.tool_name, l.action, l.success])).toEqual([
      ['custom-mcp:resources/list', 'discover', true],
      ['custom-mcp:resources/read', 'read', true],
      ['custom-mcp:resources/templates/list', 'discover', true],
      ['custom-mcp:resources/read', 'read', true],
      ['custom-mcp:prompts/list', 'discover', true],
      ['custom-mcp:prompts/get', 'read', true],
      ['custom-mcp:prompts/get', 'read', true],
      ['custom-mcp:completion/complete', 'read', true],
      ['custom-mcp:prompts/get', 'read', false],
    ])
    for (const l of log) expect([l.triggered_by, l.user_id]).toEqual(['assistant', a.userId])
  })

  it("serves a key without content:read the connections' resources, not the platform's", async () => {
    const client = await mcpClient(await toolKey(a, ['content:write']))
    const uris = (await client.listResources()).resources.map((r) => r.uri)
    expect(uris).toContain(`custom-mcp+${DOC}`)
    expect(uris.some((u) => u.startsWith('platform://'))).toBe(false)
    const platform = await failure(client.readResource({ uri: `platform://sites/${siteId}` }))
    expect(platform?.message).toContain('content:read')
    await client.close()
  })

  it("refuses them when the connection's permission disables the feature, without asking the server", async () => {
    const deny = await tp.json(`/api/connections/${aConnection}/permissions`, {
      token: a.token,
      body: { tool_name: 'custom-mcp:resources/*', allowed: false },
    })
    expect(deny.status, JSON.stringify(deny.body)).toBeLessThan(300)
    const unknownFeature = await tp.json(`/api/connections/${aConnection}/permissions`, {
      token: a.token,
      body: { tool_name: 'custom-mcp:sampling/*', allowed: false },
    })
    expect(unknownFeature.status).toBe(400)
    const client = await mcpClient(aKey)
    const passedBefore = everything.passed
    const before = (await usage(aConnection)).length
    const listed = (await client.listResources()).resources.map((r) => r.uri)
    expect(listed).toContain(`platform://sites/${siteId}`)
    expect(listed.some((u) => u.startsWith('custom-mcp+'))).toBe(false)
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)
    expect(templates.some((t) => t.startsWith('custom-mcp+'))).toBe(false)
    const refused = await failure(client.readResource({ uri: `custom-mcp+${DOC}` }))
    expect(refused?.code).toBe(-32602)
    expect(refused?.message).toContain('resources are disabled on this connection')
    expect(everything.passed).toBe(passedBefore)
    expect((await usage(aConnection)).slice(before).map((l) => [l.tool_name, l.success])).toEqual([
      ['custom-mcp:resources/read', false],
    ])
    // Prompts are their own feature: still served.
    const prompt = await client.getPrompt({ name: 'custom-mcp__simple-prompt' })
    expect(JSON.stringify(prompt.messages)).toContain('simple prompt')
    await client.close()

    const allow = await tp.json(`/api/connections/${aConnection}/permissions`, {
      token: a.token,
      body: { tool_name: 'custom-mcp:resources/*', allowed: true },
    })
    expect(allow.status).toBeLessThan(300)
    const again = await mcpClient(aKey)
    expect((await again.readResource({ uri: `custom-mcp+${DOC}` })).contents).toHaveLength(1)
    await again.close()
  })

  it("never shows one tenant's connection to another tenant", async () => {
    const client = await mcpClient(bKey)
    const passedBefore = everything.passed
    const uris = (await client.listResources()).resources.map((r) => r.uri)
    expect(uris.some((u) => u.startsWith('custom-mcp+'))).toBe(false)
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name)
    expect(prompts.some((p) => p.startsWith('custom-mcp__'))).toBe(false)
    const read = await failure(client.readResource({ uri: `custom-mcp+${DOC}` }))
    // Resource not found: -32602 on every revision (MCP 2026-07-28, ADR 0041).
    expect(read?.code).toBe(-32602)
    const prompt = await failure(client.getPrompt({ name: 'custom-mcp__simple-prompt' }))
    expect(prompt?.code).toBe(-32602)
    // A page position inside tenant A's connection means nothing to tenant B.
    const cursor = `conn.${Buffer.from(JSON.stringify({ c: aConnection })).toString('base64url')}`
    const paged = await failure(client.listResources({ cursor }))
    expect(paged?.code).toBe(-32602)
    expect(everything.passed).toBe(passedBefore)
    await client.close()
  })
})

describe('resources/list across the platform and the connections', () => {
  it('pages through the platform content, then each connection, each item once', async () => {
    const e = await tp.createTenant()
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${e.tenantId}, 'Busy site') returning id`
    // 99 articles and the site: exactly two full pages of the platform's own.
    await tp.db.sql`insert into public.articles (tenant_id, site_id, title, body, created_at)
      select ${e.tenantId}, ${site!.id}, 'Article ' || i, 'Body', date_trunc('milliseconds', now()) + i * interval '1 second'
      from generate_series(1, 99) as i`
    await connectMcp(e, everything.url)
    const client = await mcpClient(await toolKey(e))
    const pages: { uris: string[]; cursor?: string }[] = []
    let cursor: string | undefined
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined)
      pages.push({ uris: page.resources.map((r) => r.uri), cursor: page.nextCursor })
      cursor = page.nextCursor
    } while (cursor && pages.length < 10)
    const all = pages.flatMap((p) => p.uris)
    expect(new Set(all).size).toBe(all.length)
    expect(all.filter((u) => u.startsWith('platform://'))).toHaveLength(100)
    expect(all).toContain(`custom-mcp+${DOC}`)
    // The platform's content comes first; the connection's after it, on a page of its own.
    expect(pages[0]!.uris.every((u) => u.startsWith('platform://'))).toBe(true)
    const lastPlatformPage = pages.findLastIndex((p) => p.uris.some((u) => u.startsWith('platform://')))
    expect(pages[lastPlatformPage]!.cursor).toMatch(/^conn\./)
    expect(pages[lastPlatformPage + 1]!.uris.every((u) => u.startsWith('custom-mcp+'))).toBe(true)
    const bad = await failure(client.listResources({ cursor: 'conn.bm90LWpzb24' }))
    expect(bad?.code).toBe(-32602)
    await client.close()
  })
})

describe('two connections, one of them down', () => {
  it('names them apart, routes each to its own server and reports the one that is down', async () => {
    const c = await tp.createTenant()
    const secret = 'query-secret-abcdef012345'
    const down = await startMcpServer({ transport: 'streamableHttp', auth: { type: 'bearer', token: TOKEN } })
    const downId = await connectMcp(c, `${down.url}?key=${secret}`)
    const upId = await connectMcp(c, everything.url)
    await down.close()
    const upPrefix = `custom-mcp.${upId.replace(/-/g, '').slice(0, 8)}+`
    const downPrefix = `custom-mcp.${downId.replace(/-/g, '').slice(0, 8)}+`
    const client = await mcpClient(await toolKey(c))

    // The list leaves the server that is down out and still answers.
    const uris = (await client.listResources()).resources.map((r) => r.uri)
    expect(uris).toContain(`${upPrefix}${DOC}`)
    expect(uris.some((u) => u.startsWith(downPrefix))).toBe(false)
    expect(uris.some((u) => u.startsWith('custom-mcp+'))).toBe(false)
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name)
    expect(prompts).toContain(`custom-mcp_${upId.replace(/-/g, '').slice(0, 8)}__simple-prompt`)

    const read = await client.readResource({ uri: `${upPrefix}${DOC}` })
    expect(read.contents[0]!.uri).toBe(`${upPrefix}${DOC}`)
    const failed = await failure(client.readResource({ uri: `${downPrefix}${DOC}` }))
    expect(failed?.code).toBe(-32603)
    expect(failed?.message).toContain(
      `${downPrefix.slice(0, -1).replace('.', '@')}: the MCP server is unreachable`,
    )
    expect(failed?.message).not.toContain(secret)
    expect(failed?.message).not.toContain(TOKEN)
    const prompt = await failure(
      client.getPrompt({ name: `custom-mcp_${downId.replace(/-/g, '').slice(0, 8)}__simple-prompt` }),
    )
    expect(prompt?.code).toBe(-32603)
    expect(prompt?.message).toContain('unreachable')
    await client.close()
    const log = await usage(downId)
    expect(log.filter((l) => l.tool_name === 'custom-mcp:resources/read').map((l) => l.success)).toEqual([
      false,
    ])
  })
})

/**
 * A careless MCP server on loopback (the SDK's server, stateless Streamable HTTP): its error
 * answers repeat the credential it was sent and its own address, as a server's stack traces and
 * "request failed" messages do.
 */
async function startLeakyServer(): Promise<{ url: string; close(): Promise<void> }> {
  let url = ''
  const http: HttpServer = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end()
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const auth = String(req.headers.authorization ?? '')
    const server = new Server(
      { name: 'leaky', version: '1.0.0' },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
      },
    )
    const echo = `request had ${auth} for ${url}`
    const leak = () => {
      throw new McpError(-32603, `backend failed for ${auth} at ${url}`)
    }
    const anything = { type: 'object' as const, properties: {} }
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ['echo_error', 'echo_is_error', 'echo_ok'].map((name) => ({ name, inputSchema: anything })),
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === 'echo_error') leak()
      if (request.params.name === 'echo_is_error')
        return { isError: true, content: [{ type: 'text', text: echo }] }
      return {
        content: [{ type: 'text', text: echo }],
        structuredContent: { echo, headers: { authorization: auth } },
      }
    })
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: [
        { uri: 'leaky://one', name: 'one' },
        { uri: 'leaky://echo', name: 'echo' },
      ],
    }))
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      if (request.params.uri !== 'leaky://echo') leak()
      return { contents: [{ uri: 'leaky://echo', text: echo }] }
    })
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'p' }] }))
    server.setRequestHandler(GetPromptRequestSchema, leak)
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    res.on('close', () => void server.close())
    await transport.handleRequest(
      req,
      res,
      chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined,
    )
  })
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp?key=leaky-query-secret-0123`
  return {
    url,
    close: async () => {
      http.closeAllConnections()
      await new Promise<void>((r) => http.close(() => r()))
    },
  }
}

describe("a connected server's failures", () => {
  it('come back as MCP errors without the connection credential or address', async () => {
    const leaky = await startLeakyServer()
    try {
      const d = await tp.createTenant()
      const token = 'leaky-bearer-token-9876543210'
      await connectMcp(d, leaky.url, token)
      const client = await mcpClient(await toolKey(d))
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('custom-mcp+leaky://one')
      for (const attempt of [
        () => client.readResource({ uri: 'custom-mcp+leaky://one' }),
        () => client.getPrompt({ name: 'custom-mcp__p' }),
      ]) {
        const err = await failure(attempt())
        expect(err?.code).toBe(-32603)
        expect(err?.message).toContain(
          'custom-mcp: the MCP server answered: backend failed for Bearer [redacted] at [redacted]',
        )
        expect(err?.message).not.toContain(token)
        expect(err?.message).not.toContain('leaky-query-secret')
      }
      // A successful read that echoes the request is redacted as well.
      const read = await client.readResource({ uri: 'custom-mcp+leaky://echo' })
      expect(read.contents[0]).toMatchObject({ text: 'request had Bearer [redacted] for [redacted]' })
      await client.close()
    } finally {
      await leaky.close()
    }
  })

  it("tool errors and results carry neither the connection's credential nor its address, over MCP and REST", async () => {
    const leaky = await startLeakyServer()
    try {
      const d = await tp.createTenant()
      const token = 'leaky-bearer-token-9876543210'
      await connectMcp(d, leaky.url, token)
      const key = await toolKey(d)
      const { port } = new URL(leaky.url)
      const leaked = (text: string) =>
        [token, 'leaky-query-secret', `127.0.0.1:${port}`].filter((secret) => text.includes(secret))

      const client = await mcpClient(key)
      const thrown = await client.callTool({ name: 'custom-mcp__echo_error', arguments: {} })
      expect(thrown.isError).toBe(true)
      expect(JSON.stringify(thrown.content)).toContain('backend failed for Bearer [redacted] at [redacted]')
      const reported = await client.callTool({ name: 'custom-mcp__echo_is_error', arguments: {} })
      expect(reported).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'request had Bearer [redacted] for [redacted]' }],
      })
      const answered = await client.callTool({ name: 'custom-mcp__echo_ok', arguments: {} })
      expect(answered).toMatchObject({
        content: [{ type: 'text', text: 'request had Bearer [redacted] for [redacted]' }],
        structuredContent: {
          echo: 'request had Bearer [redacted] for [redacted]',
          headers: { authorization: 'Bearer [redacted]' },
        },
      })
      for (const answer of [thrown, reported, answered]) expect(leaked(JSON.stringify(answer))).toEqual([])
      await client.close()

      for (const tool of ['custom-mcp:echo_error', 'custom-mcp:echo_is_error', 'custom-mcp:echo_ok']) {
        const res = await tp.json('/mcp/tools/execute', {
          headers: { 'x-api-key': key },
          body: { tool, params: {} },
        })
        expect(res.status, tool).toBe(tool === 'custom-mcp:echo_ok' ? 200 : 422)
        expect(JSON.stringify(res.body)).toContain('[redacted]')
        expect(leaked(JSON.stringify(res.body)), tool).toEqual([])
      }
    } finally {
      await leaky.close()
    }
  })
})
