import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseKey } from '../shared/infra/keys.ts'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(() => tp.close())

const validBody = {
  name: 'server',
  environment: 'production',
  scopes: ['content:read'],
  rate_limit_per_minute: 60,
}

describe('POST /api/api-keys', () => {
  it('creates a production platform key, shown once, stored only as a hash', async () => {
    const res = await tp.json('/api/api-keys', { token: a.token, body: validBody })
    expect(res.status).toBe(201)
    const key = res.body
    expect(Object.keys(key)).toEqual(
      expect.arrayContaining(['id', 'name', 'key', 'key_prefix', 'scopes', 'rate_limit_per_minute']),
    )
    expect(key.key).toMatch(/^svc_live_[0-9A-Za-z]{36}$/)
    expect(key.key_prefix).toBe(key.key.slice(0, 13))
    expect(parseKey(key.key)?.family).toBe('platform')
    const rows = await tp.db.sql`select * from public.api_keys where id = ${key.id}`
    expect(JSON.stringify(rows)).not.toContain(key.key)
    // Never shown again.
    const again = await tp.json(`/api/api-keys/${key.id}`, { token: a.token })
    expect(again.status).toBe(200)
    expect(again.body.key).toBeUndefined()
    expect(JSON.stringify(again.body)).not.toContain(key.key.slice(13))
  })

  it('gives the spec prefixes for each kind and environment', async () => {
    const cases = [
      [{ environment: 'sandbox' }, 'svc_test_'],
      [{ kind: 'tool_server', environment: 'production' }, 'mcp_live_'],
      [{ kind: 'tool_server', environment: 'development' }, 'mcp_dev_'],
      [{ kind: 'tool_server', environment: 'service' }, 'srv_'],
    ] as const
    for (const [extra, prefix] of cases) {
      const res = await tp.json('/api/api-keys', { token: a.token, body: { ...validBody, ...extra } })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.key.startsWith(prefix)).toBe(true)
    }
  })

  it('writes api_key.created to the outbox in the same transaction', async () => {
    const res = await tp.json('/api/api-keys', { token: a.token, body: { ...validBody, name: 'evented' } })
    const events = await tp.db
      .sql`select id, type, data from public.event_outbox where data->>'api_key_id' = ${res.body.id}`
    expect(events).toHaveLength(1)
    expect(events[0]!.type).toBe('api_key.created')
    expect(events[0]!.id).toMatch(/^evt_/)
    expect(JSON.stringify(events[0]!.data)).not.toContain(res.body.key)
  })

  it.each([
    ['unknown scope', { ...validBody, scopes: ['content:delete'] }, 'scopes.0'],
    ['no scopes', { ...validBody, scopes: [] }, 'scopes'],
    ['repeated scope', { ...validBody, scopes: ['content:read', 'content:read'] }, 'scopes'],
    ['rate limit 0', { ...validBody, rate_limit_per_minute: 0 }, 'rate_limit_per_minute'],
    ['rate limit over 1000', { ...validBody, rate_limit_per_minute: 1001 }, 'rate_limit_per_minute'],
    ['fractional rate limit', { ...validBody, rate_limit_per_minute: 1.5 }, 'rate_limit_per_minute'],
    ['past expiry', { ...validBody, expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    ['bad expiry', { ...validBody, expires_at: 'tomorrow' }, 'expires_at'],
    ['unknown field', { ...validBody, owner: 'me' }, '(body)'],
    ['missing name', { ...validBody, name: undefined }, 'name'],
    ['platform key in development', { ...validBody, environment: 'development' }, 'environment'],
    [
      'tool key over 100/min',
      { ...validBody, kind: 'tool_server', rate_limit_per_minute: 101 },
      'rate_limit_per_minute',
    ],
  ])('refuses %s with 400 VALIDATION_ERROR and stores nothing', async (_name, body, field) => {
    const before = await tp.db.sql`select count(*)::int as n from public.api_keys`
    const res = await tp.json('/api/api-keys', { token: a.token, body })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' })
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    const after = await tp.db.sql`select count(*)::int as n from public.api_keys`
    expect(after[0]!.n).toBe(before[0]!.n)
  })

  it('refuses malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await tp.json('/api/api-keys', {
      token: a.token,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
  })

  it('refuses a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    // Its own connection: the server answers before reading the whole body and then closes it.
    const body = JSON.stringify({ ...validBody, name: 'x'.repeat(2 * 1024 * 1024) })
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${tp.baseUrl}/api/api-keys`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      })
      req.on('response', (r) => {
        let text = ''
        r.on('data', (d) => (text += d))
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end(body)
    })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ error: 'Payload Too Large', code: 'PAYLOAD_TOO_LARGE' })
  })

  it('lets only owners and admins create or revoke keys (403 for members, enforced by RLS too)', async () => {
    const member = await addMember(tp, a.tenantId, 'member')
    const res = await tp.json('/api/api-keys', { token: member.token, body: validBody })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('INSUFFICIENT_PERMISSIONS')
    const admin = await addMember(tp, a.tenantId, 'admin')
    expect((await tp.json('/api/api-keys', { token: admin.token, body: validBody })).status).toBe(201)
  })

  it('does not accept a platform key as a credential for key management', async () => {
    const created = await tp.json('/api/api-keys', {
      token: a.token,
      body: { ...validBody, scopes: ['users:write'] },
    })
    const res = await tp.json('/api/api-keys', { token: created.body.key, body: validBody })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('AUTH_REQUIRED')
  })
})

describe('listing, reading and revoking', () => {
  it('lists keys newest first with cursor pagination, never a secret', async () => {
    const t = await tp.createTenant()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await tp.json('/api/api-keys', { token: t.token, body: { ...validBody, name: `k${i}` } })).body.id,
      )
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { data: { id: string; key?: string }[]; next_cursor: string | null } } =
        await tp.json(`/api/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: t.token })
      for (const k of page.body.data) {
        expect(k.key).toBeUndefined()
        seen.push(k.id)
      }
      cursor = page.body.next_cursor
    } while (cursor)
    expect(seen).toEqual([...ids].reverse())
    expect((await tp.json('/api/api-keys?cursor=not-a-cursor', { token: t.token })).status).toBe(400)
    expect((await tp.json('/api/api-keys?limit=1000', { token: t.token })).status).toBe(400)
  })

  it('revokes a key: it stops working at once, the event is recorded, revoking again is idempotent', async () => {
    const created = (await tp.json('/api/api-keys', { token: a.token, body: validBody })).body
    expect((await tp.request('/v1/content', { token: created.key })).status).toBe(200)
    const revoked = await tp.json(`/api/api-keys/${created.id}/revoke`, { token: a.token, method: 'POST' })
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked_at).not.toBeNull()
    const after = await tp.json('/v1/content', { token: created.key })
    expect(after.status).toBe(401)
    expect(after.body).toMatchObject({ error: 'Unauthorized', code: 'AUTH_REQUIRED' })
    const again = await tp.json(`/api/api-keys/${created.id}/revoke`, { token: a.token, method: 'POST' })
    expect(again.status).toBe(200)
    const events = await tp.db
      .sql`select type from public.event_outbox where data->>'api_key_id' = ${created.id} order by seq`
    expect(events.map((e) => e.type)).toEqual(['api_key.created', 'api_key.revoked'])
  })

  it('keeps last_used_at without a write on every request', async () => {
    const created = (await tp.json('/api/api-keys', { token: a.token, body: validBody })).body
    const row = async () =>
      (
        await tp.db.sql<{ last_used_at: Date | null; version: string }[]>`
          select last_used_at, xmin::text as version from public.api_keys where id = ${created.id}`
      )[0]!
    const before = Date.now()
    expect((await tp.request('/v1/content', { token: created.key })).status).toBe(200)
    // The write is off the request path: wait for it (an event, not a sleep).
    let first = await row()
    while (!first.last_used_at) first = await row()
    expect(first.last_used_at.getTime()).toBeGreaterThanOrEqual(before - 1)
    // Later requests in the same minute find it fresh and write nothing: the row version and the
    // time stay those of the first write.
    for (let i = 0; i < 5; i++)
      expect((await tp.request('/v1/content', { token: created.key })).status).toBe(200)
    const got = await tp.json(`/api/api-keys/${created.id}`, { token: a.token })
    expect(got.body.last_used_at).toBe(first.last_used_at.toISOString())
    expect(await row()).toEqual(first)
  })

  it('an expired key is refused with 401', async () => {
    const created = (await tp.json('/api/api-keys', { token: a.token, body: validBody })).body
    await tp.db
      .sql`update public.api_keys set expires_at = now() - interval '1 second' where id = ${created.id}`
    expect((await tp.json('/v1/content', { token: created.key })).status).toBe(401)
  })
})

describe('tenant isolation', () => {
  it("tenant B cannot list, read, revoke or use tenant A's keys", async () => {
    const created = (await tp.json('/api/api-keys', { token: a.token, body: validBody })).body
    const list = await tp.json('/api/api-keys?limit=100', { token: b.token })
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(created.id)
    const read = await tp.json(`/api/api-keys/${created.id}`, { token: b.token })
    expect(read.status).toBe(404)
    expect(read.body.code).toBe('NOT_FOUND')
    const revoke = await tp.json(`/api/api-keys/${created.id}/revoke`, { token: b.token, method: 'POST' })
    expect(revoke.status).toBe(404)
    const [row] = await tp.db.sql`select revoked_at from public.api_keys where id = ${created.id}`
    expect(row!.revoked_at).toBeNull()
    // A's key reads A's content only.
    await tp.db.sql`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'B site')`
    const content = await tp.json('/v1/content?limit=100', { token: created.key })
    expect(JSON.stringify(content.body)).not.toContain('B site')
  })
})
