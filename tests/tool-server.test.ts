import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency } from './support/concurrency.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:05.000Z'))

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await tp.db
    .sql`insert into public.sites (tenant_id, name) values (${a.tenantId}, 'A site'), (${b.tenantId}, 'B site')`
})
afterAll(() => tp.close())

async function toolKey(t: TestTenant, environment = 'development', scopes = ['content:read']) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: { name: 'agent', kind: 'tool_server', environment, scopes, rate_limit_per_minute: 100 },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; key: string }
}

describe('tool server at {mcp_url} (/mcp)', () => {
  it('lists and executes tools with X-API-Key, for each tool-server key type', async () => {
    for (const env of ['development', 'production', 'service']) {
      const { key } = await toolKey(a, env)
      const list = await tp.json('/mcp/tools/list', { headers: { 'x-api-key': key } })
      expect(list.status).toBe(200)
      const tool = list.body.tools.find((t: { name: string }) => t.name === 'platform:list_content')
      expect(tool.inputSchema.type).toBe('object')
      const run = await tp.json('/mcp/tools/execute', {
        headers: { 'x-api-key': key },
        body: { tool: 'platform:list_content', params: { type: 'site' } },
      })
      expect(run.status).toBe(200)
      expect(run.body.result.items.map((i: { name: string }) => i.name)).toEqual(['A site'])
    }
  })

  it('refuses missing, unknown, revoked and platform keys with 401, and the wrong scope with 403', async () => {
    const none = await tp.json('/mcp/tools/list')
    expect(none.status).toBe(401)
    expect(none.body.code).toBe('AUTH_REQUIRED')
    expect((await tp.json('/mcp/tools/list', { headers: { 'x-api-key': 'mcp_dev_garbage' } })).status).toBe(
      401,
    )
    const platformKey = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'p', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 10 },
    })
    expect(
      (await tp.json('/mcp/tools/list', { headers: { 'x-api-key': platformKey.body.key } })).status,
    ).toBe(401)
    const revoked = await toolKey(a)
    await tp.json(`/api/api-keys/${revoked.id}/revoke`, { token: a.token, method: 'POST' })
    expect((await tp.json('/mcp/tools/list', { headers: { 'x-api-key': revoked.key } })).status).toBe(401)
    const noScope = await toolKey(a, 'development', ['analytics:read'])
    expect((await tp.json('/mcp/tools/list', { headers: { 'x-api-key': noScope.key } })).body.tools).toEqual(
      [],
    )
    const denied = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': noScope.key },
      body: { tool: 'platform:list_content', params: {} },
    })
    expect(denied.status).toBe(403)
    expect(denied.body.code).toBe('INSUFFICIENT_PERMISSIONS')
  })

  it('validates the request and the tool params', async () => {
    const { key } = await toolKey(a)
    const headers = { 'x-api-key': key }
    expect((await tp.json('/mcp/tools/execute', { headers, body: { params: {} } })).status).toBe(400)
    expect(
      (await tp.json('/mcp/tools/execute', { headers, body: { tool: 'platform:nope', params: {} } })).status,
    ).toBe(404)
    const bad = await tp.json('/mcp/tools/execute', {
      headers,
      body: { tool: 'platform:list_content', params: { limit: 0 } },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details[0].field).toBe('params.limit')
  })

  it("a key sees only its own tenant's data", async () => {
    const { key } = await toolKey(b)
    const run = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key },
      body: { tool: 'platform:list_content', params: {} },
    })
    expect(JSON.stringify(run.body)).not.toContain('A site')
  })

  it('admits exactly 100 requests per minute per tool-server key across two instances', async (ctx) => {
    needsRealConcurrency(ctx)
    clock.advance(60_000)
    const { key } = await toolKey(a)
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        tp.json('/mcp/tools/list', { headers: { 'x-api-key': key }, instance: i % 2 }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(100)
    const limited = results.filter((r) => r.status === 429)
    expect(limited).toHaveLength(20)
    expect(limited[0]!.headers.get('x-ratelimit-limit')).toBe('100')
    expect(limited[0]!.body.retryAfter).toBeGreaterThan(0)
  })
})
