import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * Which protocol revision each client speaks at {mcp_url}, over real HTTP: the official SDK's v2
 * client on MCP 2026-07-28 (stateless requests, server/discover, cache hints), the v1 client on
 * 2025-11-25 (Streamable HTTP and HTTP+SSE), and every older revision by initialize (ADR 0041).
 */

let tp: TestPlatform
let a: TestTenant
let key: string
const MODERN = '2026-07-28'
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  const res = await tp.json('/api/api-keys', {
    token: a.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read', 'content:write'],
      rate_limit_per_minute: 100,
    },
  })
  key = res.body.key
}, setupTimeout())
afterAll(() => tp.close())

const mcpUrl = () => new URL(`${tp.baseUrl}/mcp`)
const envelope = (extra: Record<string, unknown> = {}) => ({
  _meta: {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  },
  ...extra,
})

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(mcpUrl(), {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  })
}

describe('MCP 2026-07-28', () => {
  it('answers server/discover and a stateless tools/list with the versions, capabilities and cache hints', async () => {
    const discover = await post(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: envelope() },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    )
    expect(discover.status).toBe(200)
    const d = (await discover.json()).result
    // The versions a client may put in a request's envelope; the older ones are negotiated by
    // initialize, as a client that falls back does (below).
    expect(d.supportedVersions).toEqual([MODERN])
    expect(d._meta['io.modelcontextprotocol/serverInfo'].name).toBe('tenant-platform-tools')
    expect(d.capabilities.tools).toBeDefined()
    expect([d.ttlMs, d.cacheScope]).toEqual([3_600_000, 'public'])

    // No initialize first: the request carries its version and capabilities.
    const list = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: envelope() },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    )
    expect(list.status).toBe(200)
    expect(list.headers.get('mcp-session-id')).toBeNull()
    const l = (await list.json()).result
    expect(l.tools.map((t: { name: string }) => t.name)).toContain('platform__list_content')
    // Each tool carries its integration's icon.
    const listContent = l.tools.find((t: { name: string }) => t.name === 'platform__list_content')
    expect(listContent.icons[0]).toMatchObject({ mimeType: 'image/svg+xml', sizes: ['any'] })
    expect(listContent.icons[0].src).toMatch(/^data:image\/svg\+xml;base64,/)
    expect([l.ttlMs, l.cacheScope]).toEqual([60_000, 'private'])
  })

  it('refuses a version it does not speak with the supported ones named', async () => {
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...envelope()._meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    )
    const body = await res.json()
    expect(body.error.code).toBe(-32022)
    expect(JSON.stringify(body.error.data)).toContain(MODERN)
  })

  it('serves the v2 client pinned to 2026-07-28 and in auto mode: discover, list, call', async () => {
    for (const mode of [{ pin: MODERN }, 'auto'] as const) {
      const client = new ClientV2({ name: 'v2', version: '2.4.0' }, { versionNegotiation: { mode } as never })
      await client.connect(new TransportV2(mcpUrl(), { requestInit: { headers: { 'x-api-key': key } } }))
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN)
      expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN)
      const { tools } = await client.listTools()
      expect(tools.some((t) => t.name === 'platform__list_content')).toBe(true)
      const call = await client.callTool({ name: 'platform__list_content', arguments: {} })
      expect(call.isError ?? false).toBe(false)
      await client.close()
    }
  })
})

describe('older revisions', () => {
  it('negotiates each older revision by initialize, with no session', async () => {
    for (const version of LEGACY) {
      const res = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('mcp-session-id')).toBeNull()
      expect((await res.json()).result.protocolVersion).toBe(version)
    }
  })

  it('serves the v1 client on 2025-11-25 over Streamable HTTP and over HTTP+SSE', async () => {
    const streamable = new Client({ name: 'v1', version: '1.32.2' })
    await streamable.connect(
      new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { 'x-api-key': key } } }),
    )
    expect((streamable.transport as { protocolVersion?: string }).protocolVersion).toBe('2025-11-25')
    expect((await streamable.listTools()).tools.length).toBeGreaterThan(0)
    await streamable.close()

    const sse = new Client({ name: 'v1-sse', version: '1.32.2' })
    await sse.connect(
      new SSEClientTransport(new URL(`${tp.baseUrl}/mcp/sse`), {
        requestInit: { headers: { 'x-api-key': key } },
        eventSourceInit: { fetch: (url, init) => fetch(url, init) },
      }),
    )
    expect((await sse.listTools()).tools.length).toBeGreaterThan(0)
    await sse.close()
  })

  it('serves mcp-remote, the stdio bridge desktop clients run, with a header key', async () => {
    const client = new Client({ name: 'through-mcp-remote', version: '1' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        path.resolve('node_modules/mcp-remote/dist/proxy.js'),
        `${tp.baseUrl}/mcp`,
        '--header',
        `x-api-key:${key}`,
        '--transport',
        'http-only',
        '--allow-http',
      ],
      // Its token store, kept out of the home directory.
      env: {
        ...process.env,
        MCP_REMOTE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'mcp-remote-')),
      } as Record<string, string>,
      stderr: 'ignore',
    })
    await client.connect(transport)
    expect(client.getServerVersion()?.name).toBe('tenant-platform-tools')
    const call = await client.callTool({ name: 'platform__list_content', arguments: {} })
    expect(call.isError ?? false).toBe(false)
    await client.close()
  }, 60_000)
})
