import { request as httpRequest } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * What an MCP client notices at {mcp_url}: error messages said once, tool annotations, the
 * Origin rule on a loopback deployment, and the OAuth challenge of a 401 (RFC 9728 metadata).
 */

let tp: TestPlatform
let a: TestTenant
let key: string

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
}, 60_000)
afterAll(() => tp.close())

async function connect(headers: Record<string, string> = { 'x-api-key': key }) {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${tp.baseUrl}/mcp`), { requestInit: { headers } }),
  )
  return client
}

/** A raw POST with a chosen Host header (fetch does not let a caller set Host). */
function postWithHost(host: string, headers: Record<string, string>, body: unknown) {
  const url = new URL(`${tp.baseUrl}/mcp`)
  const payload = JSON.stringify(body)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (d) => {
          text += d
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
}

describe('errors, annotations and origins', () => {
  it('says an error message once, without the code repeated in it', async () => {
    const client = await connect()
    const err = await client.callTool({ name: 'no__such_tool', arguments: {} }).catch((e: Error) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as Error).message).toBe('MCP error -32602: Unknown tool: no__such_tool')
    await client.close()
  })

  it('annotates the platform tools read-only or not destructive', async () => {
    const client = await connect()
    const { tools } = await client.listTools()
    const byName = new Map(tools.map((t) => [t.name, t.annotations]))
    expect(byName.get('platform__list_content')).toEqual({ readOnlyHint: true, openWorldHint: false })
    expect(byName.get('platform__create_draft')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    })
    expect(byName.get('platform__publish_article')).toMatchObject({ idempotentHint: true })
    await client.close()
  })

  it('accepts a loopback Origin on a loopback host and refuses a rebinding page', async () => {
    const host = new URL(tp.baseUrl).host
    const local = await postWithHost(host, { 'x-api-key': key, origin: `http://${host}` }, initialize)
    expect(local.status).toBe(200)
    const otherPort = await postWithHost(
      host,
      { 'x-api-key': key, origin: 'http://localhost:6274' },
      initialize,
    )
    expect(otherPort.status).toBe(200)
    // DNS rebinding: the page's own name is the Origin and the Host.
    const rebound = await postWithHost(
      'evil.example.com',
      { 'x-api-key': key, origin: 'http://evil.example.com' },
      initialize,
    )
    expect(rebound.status).toBe(403)
    // A loopback Origin reaching a deployment by its public name is a page elsewhere: refused.
    const publicHost = await postWithHost(
      'tools.example.com',
      { 'x-api-key': key, origin: `http://${host}` },
      initialize,
    )
    expect(publicHost.status).toBe(403)
  })
})

describe('the OAuth challenge of a 401', () => {
  it('names the protected resource metadata in WWW-Authenticate on every form', async () => {
    for (const path of ['/mcp', '/mcp/sse', '/mcp/tools/list', '/functions/v1/mcp-sse/tools/list']) {
      const res = await tp.request(path, { headers: { accept: 'text/event-stream' } })
      expect(res.status).toBe(401)
      const base = path.startsWith('/functions') ? '/functions/v1/mcp-sse' : '/mcp'
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${tp.baseUrl}${base}/.well-known/oauth-protected-resource"`,
      )
    }
    const wrong = await tp.request('/mcp', { method: 'POST', token: 'not-a-token', body: initialize })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${tp.baseUrl}/mcp/.well-known/oauth-protected-resource", error="invalid_token"`,
    )
    // A key keeps working as before, with no challenge.
    const ok = await tp.request('/mcp/tools/list', { headers: { 'x-api-key': key } })
    expect([ok.status, ok.headers.get('www-authenticate')]).toEqual([200, null])
  })

  it('serves RFC 9728 metadata at the named address and at the well-known path form', async () => {
    for (const path of [
      '/mcp/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await tp.json(path)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        resource: `${tp.baseUrl}/mcp`,
        authorization_servers: [`${tp.baseUrl}/mcp`],
        scopes_supported: ['content:read', 'content:write'],
        bearer_methods_supported: ['header'],
      })
    }
    const viaFunction = await tp.json('/functions/v1/mcp-sse/.well-known/oauth-protected-resource')
    expect(viaFunction.body.resource).toBe(`${tp.baseUrl}/functions/v1/mcp-sse`)
  })
})
