import { request as httpRequest } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

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
}, setupTimeout())
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
    // A key still works beside OAuth, with no challenge.
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

describe('resources, prompts, completions and logging', () => {
  it('advertises exactly what it serves', async () => {
    const client = await connect()
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      logging: {},
      // Tasks for long tool calls (ADR 0044), on this client's revision (2025-11-25).
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    })
    expect(await client.setLoggingLevel('warning')).toEqual({})
    await client.close()
  })

  it("lists the tenant's sites and articles as resources, a page at a time, and reads them", async () => {
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name, domain) values (${a.tenantId}, 'Paged site', 'paged.example.com') returning id`
    for (let i = 0; i < 55; i++)
      await tp.db.sql`insert into public.articles (tenant_id, site_id, title, body, created_at)
        values (${a.tenantId}, ${site!.id}, ${`Article ${i}`}, ${`Body ${i}`}, date_trunc('milliseconds', now()) + ${i} * interval '1 second')`
    const other = await tp.createTenant()
    const [foreign] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${other.tenantId}, 'Not yours') returning id`

    const client = await connect()
    const first = await client.listResources()
    expect(first.resources).toHaveLength(50)
    expect(first.nextCursor).toBeTruthy()
    const second = await client.listResources({ cursor: first.nextCursor })
    const all = [...first.resources, ...second.resources]
    expect(second.nextCursor).toBeUndefined()
    expect(all.map((r) => r.uri)).toContain(`platform://sites/${site!.id}`)
    expect(all.filter((r) => r.uri.startsWith('platform://articles/'))).toHaveLength(55)
    expect(all.map((r) => r.title)).not.toContain('Not yours')

    const templates = await client.listResourceTemplates()
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'platform://sites/{site_id}',
      'platform://articles/{article_id}',
    ])
    const article = all.find((r) => r.title === 'Article 7')!
    const read = await client.readResource({ uri: article.uri })
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      title: 'Article 7',
      body: 'Body 7',
    })

    // Another tenant's site is no resource of this key's. A missing resource is -32602 (invalid
    // params) as MCP 2026-07-28 requires; the SDK answers every revision so (ADR 0041).
    const notYours = await client
      .readResource({ uri: `platform://sites/${foreign!.id}` })
      .catch((e: Error) => e)
    expect((notYours as { code?: number }).code).toBe(-32602)
    const garbage = await client.readResource({ uri: 'file:///etc/passwd' }).catch((e: Error) => e)
    expect((garbage as { code?: number }).code).toBe(-32602)
    const badCursor = await client.listResources({ cursor: 'not-a-cursor' }).catch((e: Error) => e)
    expect((badCursor as { code?: number }).code).toBe(-32602)
    await client.close()
  })

  it('serves prompts with their arguments and completes ids', async () => {
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${a.tenantId}, 'Zebra news') returning id`
    const client = await connect()
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual(['draft_article', 'review_article'])
    const got = await client.getPrompt({
      name: 'draft_article',
      arguments: { site_id: site!.id, topic: 'Stripes' },
    })
    expect(got.messages[0]!.content).toMatchObject({ type: 'text' })
    expect((got.messages[0]!.content as { text: string }).text).toContain('Zebra news')
    expect(got.messages[1]!.content).toMatchObject({
      type: 'resource',
      resource: { uri: `platform://sites/${site!.id}` },
    })
    const missing = await client
      .getPrompt({ name: 'draft_article', arguments: { site_id: site!.id } })
      .catch((e: Error) => e)
    expect((missing as { code?: number }).code).toBe(-32602)
    expect((missing as Error).message).toBe('MCP error -32602: Missing arguments: topic')

    const byName = await client.complete({
      ref: { type: 'ref/prompt', name: 'draft_article' },
      argument: { name: 'site_id', value: 'zeb' },
    })
    expect(byName.completion.values).toEqual([site!.id])
    const byId = await client.complete({
      ref: { type: 'ref/resource', uri: 'platform://sites/{site_id}' },
      argument: { name: 'site_id', value: site!.id.slice(0, 6) },
    })
    expect(byId.completion.values).toContain(site!.id)
    const unknown = await client
      .complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'site_id', value: '' } })
      .catch((e: Error) => e)
    expect((unknown as { code?: number }).code).toBe(-32602)
    await client.close()
  })

  it("keeps the platform's resources and prompts from a key without content:read", async () => {
    const res = await tp.json('/api/api-keys', {
      token: a.token,
      body: {
        name: 'writer',
        kind: 'tool_server',
        environment: 'development',
        scopes: ['content:write'],
        rate_limit_per_minute: 100,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const client = await connect({ 'x-api-key': res.body.key })
    // The list leaves the platform's content out (as tools/list leaves out the platform's read tools)...
    const listed = await client.listResources()
    expect(listed.resources.filter((r) => r.uri.startsWith('platform://'))).toEqual([])
    const [site] = await tp.db.sql<
      { id: string }[]
    >`select id from public.sites where tenant_id = ${a.tenantId} limit 1`
    expect(site).toBeDefined()
    // ...and reading it says which scope is missing.
    const refused = await client.readResource({ uri: `platform://sites/${site!.id}` }).catch((e: Error) => e)
    expect((refused as Error).message).toContain('need the scope content:read')
    const prompt = await client
      .getPrompt({ name: 'review_article', arguments: { article_id: crypto.randomUUID() } })
      .catch((e: Error) => e)
    expect((prompt as Error).message).toContain('content:read')
    await client.close()
  })
})
