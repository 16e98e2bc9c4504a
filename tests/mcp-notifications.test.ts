import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * A connected MCP server's progress and log notifications during a tool call reach the calling
 * MCP client on the Streamable HTTP response stream, bound to that call. The connected server is a
 * small SDK server on loopback that reports progress (when asked for it) and logs during its one
 * tool, its log carrying the connection's own token, which must not reach the client.
 */

const TOKEN = 'notifying-bearer-token-4242424242'
let tp: TestPlatform
let t: TestTenant
let upstream: ReturnType<typeof createServer>
let upstreamUrl: string

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end()
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const server = new Server(
      { name: 'notifying', version: '1.0.0' },
      { capabilities: { tools: {}, logging: {} } },
    )
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'work', description: 'Works in three steps', inputSchema: { type: 'object' } }],
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken
      for (let step = 1; step <= 3; step++) {
        if (progressToken !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: 3, message: `step ${step}` },
          })
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', logger: 'worker', data: { step, auth: `Bearer ${TOKEN}` } },
        })
      }
      return { content: [{ type: 'text', text: 'done' }] }
    })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    await server.connect(transport)
    res.on('close', () => void server.close())
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString()))
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`
  tp = await startTestPlatform()
  t = await tp.createTenant()
  const connected = await tp.json('/api/integrations/connect', {
    token: t.token,
    body: {
      integration_id: integrationBySlug('custom-mcp')!.integration_id,
      connection_type: 'mcp',
      mcp_server_url: upstreamUrl,
      mcp_auth_type: 'bearer',
      mcp_auth_token: TOKEN,
    },
  })
  expect(connected.status, JSON.stringify(connected.body)).toBe(201)
}, setupTimeout())
afterAll(async () => {
  upstream?.closeAllConnections()
  upstream?.close()
  await tp?.close()
})

async function toolKey() {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
    },
  })
  return res.body.key as string
}

describe("a connected server's notifications during a tool call", () => {
  it('reach the SDK client: progress to its onprogress, log messages to its handler, without the token', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), {
        requestInit: { headers: { 'x-api-key': await toolKey() } },
      }),
    )
    const logs: unknown[] = []
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params)
    })
    const progress: unknown[] = []
    const result = await client.callTool({ name: 'custom-mcp__work', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    })
    expect(result.content).toEqual([{ type: 'text', text: 'done' }])
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })))
    expect(logs).toEqual(
      [1, 2, 3].map((step) => ({
        level: 'info',
        logger: 'worker',
        data: { step, auth: 'Bearer [redacted]' },
      })),
    )
    expect(JSON.stringify(logs)).not.toContain(TOKEN)
    await client.close()
  })

  it('come as an event stream bound to the call; a platform tool is still answered with JSON', async () => {
    const key = await toolKey()
    const post = (body: unknown) =>
      fetch(`${tp.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify(body),
      })
    const res = await post({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'custom-mcp__work', arguments: {}, _meta: { progressToken: 'p-7' } },
    })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const messages = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
    expect(messages.map((m) => m.method ?? `response ${m.id}`)).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'response 7',
    ])
    for (const m of messages.filter((m) => m.method === 'notifications/progress'))
      expect(m.params.progressToken).toBe('p-7')
    const platform = await post({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'platform__list_content', arguments: {} },
    })
    expect(platform.headers.get('content-type')).toContain('application/json')
    expect((await platform.json()).id).toBe(8)
  })
})
