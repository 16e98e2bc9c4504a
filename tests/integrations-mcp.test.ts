import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

const custom = integrationBySlug('custom-mcp')!
const official = integrationBySlug('mcp-server')!
const BEARER = 'mcp-bearer-token-7f3a9c1d2e4b5a6f'
const API_KEY = 'mcp-api-key-0c8e2f4a6b1d3e5f'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let streamable: McpTestServer
let sse: McpTestServer
let notMcp: Server
let notMcpUrl: string

beforeAll(async () => {
  ;[tp, streamable, sse] = await Promise.all([
    startTestPlatform(),
    startMcpServer({ transport: 'streamableHttp', auth: { type: 'bearer', token: BEARER } }),
    startMcpServer({ transport: 'sse', auth: { type: 'api_key', token: API_KEY } }),
  ])
  notMcp = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<html><body>Just a web page</body></html>')
  })
  await new Promise<void>((r) => notMcp.listen(0, '127.0.0.1', r))
  notMcpUrl = `http://127.0.0.1:${(notMcp.address() as AddressInfo).port}/mcp`
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())

afterAll(async () => {
  notMcp?.close()
  await Promise.all([streamable?.close(), sse?.close(), tp?.close()])
})

const connectBody = (over: Record<string, unknown> = {}) => ({
  integration_id: custom.integration_id,
  connection_type: 'mcp',
  mcp_server_url: streamable.url,
  mcp_auth_type: 'bearer',
  mcp_auth_token: BEARER,
  display_name: 'Everything server',
  ...over,
})

const connectionCount = async () =>
  (await tp.db.sql`select count(*)::int as n from public.integration_connections`)[0]!.n as number

describe('POST /api/integrations/connect (MCP)', () => {
  it('connects over Streamable HTTP with a bearer token and stores the discovered tools', async () => {
    const res = await tp.json('/api/integrations/connect', { token: a.token, body: connectBody() })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const conn = res.body
    expect(conn).toMatchObject({
      connection_type: 'mcp',
      integration_id: custom.integration_id,
      integration_slug: 'custom-mcp',
      display_name: 'Everything server',
      mcp_auth_type: 'bearer',
      mcp_transport: 'streamable_http',
      status: 'active',
    })
    expect(JSON.stringify(conn)).not.toContain(BEARER)
    expect(conn.mcp_auth_token).toBeUndefined()
    const names = conn.tools.map((t: { name: string }) => t.name)
    expect(names).toEqual(expect.arrayContaining(['custom-mcp:echo', 'custom-mcp:get-sum']))
    for (const name of names) expect(name).toMatch(/^custom-mcp:[A-Za-z0-9_./-]+$/)
    const echo = conn.tools.find((t: { name: string }) => t.name === 'custom-mcp:echo')
    expect(echo.alias).toBe('custom-mcp__echo')
    expect(echo.description.length).toBeGreaterThan(0)
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: expect.any(Object) } })
    expect(conn.tool_count).toBe(names.length)

    // Stored: the tools, and the token only as ciphertext that decrypts to it.
    const [row] = await tp.db
      .sql`select mcp_auth_token_encrypted from public.integration_connections where id = ${conn.id}`
    expect(row!.mcp_auth_token_encrypted).not.toContain(BEARER)
    const vault = tp.instances[0]!.platform.deps.vault
    expect(await vault.decrypt(a.tenantId, row!.mcp_auth_token_encrypted, 'mcp-auth-token')).toBe(BEARER)
    const tools = await tp.db
      .sql`select name, alias from public.integration_tools where connection_id = ${conn.id}`
    expect(tools.map((t) => t.name).sort()).toEqual([...names].sort())

    // The discovery call is in the usage log.
    const usage = await tp.db.sql`select * from public.integration_usage where connection_id = ${conn.id}`
    expect(usage).toHaveLength(1)
    expect(usage[0]).toMatchObject({
      tool_name: 'tools/list',
      action: 'discover',
      triggered_by: 'manual',
      success: true,
      user_id: a.userId,
    })

    // Get and list never show a secret.
    const got = await tp.json(`/api/connections/${conn.id}`, { token: a.token })
    expect(got.status).toBe(200)
    expect(got.body.tools.length).toBe(names.length)
    const list = await tp.json('/api/connections', { token: a.token })
    expect(JSON.stringify(list.body)).not.toContain(BEARER)
    expect(JSON.stringify(list.body)).not.toContain('encrypted')
  })

  it('falls back to the SSE transport and sends the token as X-API-Key', async () => {
    const res = await tp.json('/api/integrations/connect', {
      token: a.token,
      body: connectBody({
        integration_id: official.integration_id,
        mcp_server_url: sse.url,
        mcp_auth_type: 'api_key',
        mcp_auth_token: API_KEY,
      }),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.mcp_transport).toBe('sse')
    expect(res.body.integration_slug).toBe('mcp-server')
    const names = res.body.tools.map((t: { name: string }) => t.name)
    expect(names).toEqual(expect.arrayContaining(['mcp-server:echo', 'mcp-server:get-sum']))
  })

  it.each([
    ['a wrong bearer token', () => connectBody({ mcp_auth_token: 'wrong-token' }), 'unauthorized'],
    [
      'the right token as the wrong auth type',
      () => connectBody({ mcp_auth_type: 'api_key' }),
      'unauthorized',
    ],
    [
      'a wrong API key over SSE',
      () => connectBody({ mcp_server_url: sse.url, mcp_auth_type: 'api_key', mcp_auth_token: 'nope' }),
      'unauthorized',
    ],
    ['a web page that is not MCP', () => connectBody({ mcp_server_url: notMcpUrl }), 'not_mcp'],
    ['an unreachable server', () => connectBody({ mcp_server_url: 'http://127.0.0.1:9/mcp' }), 'unreachable'],
  ])('answers 422 with the reason and stores nothing for %s', async (_name, body, reason) => {
    const before = await connectionCount()
    const res = await tp.json('/api/integrations/connect', { token: a.token, body: body() })
    expect(res.status, JSON.stringify(res.body)).toBe(422)
    expect(res.body.code).toBe('UNPROCESSABLE')
    expect(res.body.details[0]).toEqual({ field: 'mcp_server_url', message: reason })
    expect(JSON.stringify(res.body)).not.toContain(BEARER)
    expect(await connectionCount()).toBe(before)
  })

  it('refuses addresses the SSRF policy forbids (cloud metadata) with 400', async () => {
    const before = await connectionCount()
    const res = await tp.json('/api/integrations/connect', {
      token: a.token,
      body: connectBody({ mcp_server_url: 'http://169.254.169.254/mcp' }),
    })
    expect(res.status).toBe(400)
    expect(res.body.details[0].field).toBe('mcp_server_url')
    expect(await connectionCount()).toBe(before)
  })

  it.each([
    ['missing integration_id', { integration_id: undefined }, 'integration_id'],
    ['connection_type oauth', { connection_type: 'oauth' }, 'connection_type'],
    ['a non-URL', { mcp_server_url: 'not a url' }, 'mcp_server_url'],
    ['a ftp URL', { mcp_server_url: 'ftp://example.com/mcp' }, 'mcp_server_url'],
    ['an unknown auth type', { mcp_auth_type: 'basic' }, 'mcp_auth_type'],
    ['an empty token', { mcp_auth_token: '' }, 'mcp_auth_token'],
    ['an oversized token', { mcp_auth_token: 'x'.repeat(5000) }, 'mcp_auth_token'],
    ['an unknown field', { extra: true }, '(body)'],
    ['an unknown integration', { integration_id: '00000000-0000-4000-8000-000000000000' }, 'integration_id'],
    [
      'an OAuth-only integration',
      { integration_id: integrationBySlug('slack')!.integration_id },
      'integration_id',
    ],
  ])('answers 400 VALIDATION_ERROR for %s and stores nothing', async (_name, over, field) => {
    const before = await connectionCount()
    const res = await tp.json('/api/integrations/connect', { token: a.token, body: connectBody(over) })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    expect(await connectionCount()).toBe(before)
  })

  it('requires a signed-in owner or admin', async () => {
    expect((await tp.json('/api/integrations/connect', { body: connectBody() })).status).toBe(401)
    const member = await addMember(tp, a.tenantId, 'member')
    const res = await tp.json('/api/integrations/connect', { token: member.token, body: connectBody() })
    expect(res.status).toBe(403)
  })
})

describe('MCP connections afterwards', () => {
  let id: string
  beforeAll(async () => {
    const res = await tp.json('/api/integrations/connect', {
      token: a.token,
      body: connectBody({ display_name: 'Second' }),
    })
    id = res.body.id
  })

  it('discovers the tools again on request', async () => {
    await tp.db
      .sql`delete from public.integration_tools where connection_id = ${id} and name = 'custom-mcp:echo'`
    const res = await tp.json(`/api/connections/${id}/discover`, { token: a.token, method: 'POST' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.tools.map((t: { name: string }) => t.name)).toContain('custom-mcp:echo')
    const usage = await tp.db
      .sql`select count(*)::int as n from public.integration_usage where connection_id = ${id} and action = 'discover'`
    expect(usage[0]!.n).toBe(2)
  })

  it('renames, and deletes with its tools', async () => {
    const renamed = await tp.json(`/api/connections/${id}`, {
      token: a.token,
      method: 'PATCH',
      body: { display_name: 'Renamed' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body.display_name).toBe('Renamed')
    const bad = await tp.json(`/api/connections/${id}`, {
      token: a.token,
      method: 'PATCH',
      body: { display_name: '', x: 1 },
    })
    expect(bad.status).toBe(400)
    const del = await tp.json(`/api/connections/${id}`, { token: a.token, method: 'DELETE' })
    expect(del.status).toBe(200)
    expect(del.body).toMatchObject({ id, deleted: true })
    expect((await tp.json(`/api/connections/${id}`, { token: a.token })).status).toBe(404)
    expect(
      (
        await tp.db.sql`select count(*)::int as n from public.integration_tools where connection_id = ${id}`
      )[0]!.n,
    ).toBe(0)
  })

  it("keeps tenant B away from tenant A's MCP connection", async () => {
    const res = await tp.json('/api/integrations/connect', {
      token: a.token,
      body: connectBody({ display_name: 'A only' }),
    })
    const aId = res.body.id
    for (const [method, path, body] of [
      ['GET', `/api/connections/${aId}`, undefined],
      ['PATCH', `/api/connections/${aId}`, { display_name: 'pwned' }],
      ['POST', `/api/connections/${aId}/discover`, undefined],
      ['DELETE', `/api/connections/${aId}`, undefined],
    ] as const) {
      const r = await tp.json(path, { token: b.token, method, body })
      expect(r.status, `${method} ${path}`).toBe(404)
    }
    const list = await tp.json('/api/connections', { token: b.token })
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(aId)
    const [still] = await tp.db.sql`select display_name from public.integration_connections where id = ${aId}`
    expect(still!.display_name).toBe('A only')
  })
})

describe('no plaintext MCP token anywhere', () => {
  it('finds neither token in any table after all of the above', async () => {
    const tables = await tp.db.sql<{ s: string; t: string }[]>`
      select table_schema as s, table_name as t from information_schema.tables
      where table_schema in ('public', 'private', 'auth') and table_type = 'BASE TABLE'`
    expect(tables.length).toBeGreaterThan(5)
    for (const { s, t } of tables) {
      for (const secret of [BEARER, API_KEY]) {
        const [r] = await tp.db
          .sql`select count(*)::int as n from ${tp.db.sql(s)}.${tp.db.sql(t)} x where x::text like ${`%${secret}%`}`
        expect(r!.n, `${s}.${t}`).toBe(0)
      }
    }
    expect(
      (
        await tp.db
          .sql`select count(*)::int as n from public.integration_connections where connection_type = 'mcp'`
      )[0]!.n,
    ).toBeGreaterThan(0)
  })
})
