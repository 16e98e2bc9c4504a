import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency } from './support/concurrency.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:10.000Z'))

beforeAll(async () => {
  // Two instances over one database; a fixed clock keeps every request in one window.
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
})
afterAll(() => tp.close())

describe('rate limits kept in Postgres', () => {
  it("admits exactly a key's rate_limit_per_minute when requests race from two instances", async (ctx) => {
    needsRealConcurrency(ctx)
    const created = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'limited', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 25 },
    })
    const key = created.body.key
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => tp.json('/v1/content', { token: key, instance: i % 2 })),
    )
    const ok = results.filter((r) => r.status === 200)
    const limited = results.filter((r) => r.status === 429)
    expect(ok).toHaveLength(25)
    expect(limited).toHaveLength(35)
    const sample = limited[0]!
    expect(sample.body).toMatchObject({ error: 'Too Many Requests', code: 'RATE_LIMITED' })
    // GCRA: one request is earned back every 60 s / 25 = 2.4 s, the whole limit in 60 s.
    expect(sample.body.retryAfter).toBe(3)
    expect(sample.headers.get('retry-after')).toBe('3')
    expect(sample.headers.get('x-ratelimit-limit')).toBe('25')
    expect(sample.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(sample.headers.get('x-ratelimit-reset')).toBe('60')
    // Remaining counts down across both instances.
    const remaining = ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y)
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => i))
  })

  it("earns requests back at the limit's rate, and retryAfter is exactly the wait", async () => {
    const created = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'paced', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 6 },
    })
    const key = created.body.key
    for (let i = 0; i < 6; i++) expect((await tp.json('/v1/content', { token: key })).status).toBe(200)
    const refused = await tp.json('/v1/content', { token: key })
    expect(refused.status).toBe(429)
    expect(refused.body.retryAfter).toBe(10) // one request every 10 s
    clock.advance(9_000)
    expect((await tp.json('/v1/content', { token: key })).status).toBe(429)
    clock.advance(1_000)
    const ok = await tp.json('/v1/content', { token: key })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('0')
    expect((await tp.json('/v1/content', { token: key })).status).toBe(429)
  })

  it('lets no burst of twice the limit through around a minute boundary', async () => {
    const created = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'boundary', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 20 },
    })
    const key = created.body.key
    // Fixed windows admitted 20 at 12:xx:59.9 and 20 more at 12:yy:00.1.
    const now = clock.now()
    clock.set(new Date(Math.ceil(now.getTime() / 60_000) * 60_000 + 59_900))
    const send = () =>
      Promise.all(
        Array.from({ length: 25 }, (_, i) => tp.json('/v1/content', { token: key, instance: i % 2 })),
      )
    const before = await send()
    clock.advance(200)
    const after = await send()
    const admitted = [...before, ...after].filter((r) => r.status === 200).length
    expect(before.filter((r) => r.status === 200)).toHaveLength(20)
    expect(admitted).toBe(20) // 0.2 s earns nothing back at 3 s per request
  })

  it('opens a new window after the minute', async () => {
    const created = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'one', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 1 },
    })
    expect((await tp.json('/v1/content', { token: created.body.key })).status).toBe(200)
    expect((await tp.json('/v1/content', { token: created.body.key })).status).toBe(429)
    clock.advance(60_000)
    expect((await tp.json('/v1/content', { token: created.body.key })).status).toBe(200)
  })

  it('limits callers without valid credentials to 60 per minute per client address', async () => {
    const headers = { 'x-test-client': '203.0.113.7' }
    const results = await Promise.all(
      Array.from({ length: 70 }, (_, i) => tp.json('/v1/content', { headers, instance: i % 2 })),
    )
    expect(results.filter((r) => r.status === 401)).toHaveLength(60)
    expect(results.filter((r) => r.status === 429)).toHaveLength(10)
    // Another address has its own budget.
    expect((await tp.json('/v1/content', { headers: { 'x-test-client': '203.0.113.8' } })).status).toBe(401)
  })

  it('gives signed-in users 1000 per minute and says so in the headers', async () => {
    const res = await tp.request('/v1/content', { token: a.token })
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000)
  })

  it('prune-rate-limits deletes exactly the finished windows, and pruning lets no one through early', async () => {
    const key = async (name: string, limit: number) =>
      (
        await tp.json('/api/api-keys', {
          token: a.token,
          body: { name, environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: limit },
        })
      ).body as { id: string; key: string }
    const exhausted = await key('exhausted', 2)
    const idle = await key('idle', 6)
    for (let i = 0; i < 2; i++)
      expect((await tp.json('/v1/content', { token: exhausted.key })).status).toBe(200)
    expect((await tp.json('/v1/content', { token: exhausted.key })).status).toBe(429)
    expect((await tp.json('/v1/content', { token: idle.key })).status).toBe(200)
    // 20 s later: the idle key's window (10 s) is over, the exhausted key's (60 s) is not.
    clock.advance(20_000)
    const buckets = async () =>
      new Map(
        (
          await tp.db.sql<{ bucket: string; tat: Date }[]>`select bucket, tat from private.rate_limit_buckets`
        ).map((r) => [r.bucket, r.tat.getTime()]),
      )
    const before = await buckets()
    expect(before.get(`key:${idle.id}`)).toBeLessThan(clock.now().getTime())
    expect(before.get(`key:${exhausted.id}`)).toBeGreaterThan(clock.now().getTime())
    const finished = [...before].filter(([, tat]) => tat < clock.now().getTime()).map(([b]) => b)
    const res = await tp.json('/functions/v1/tenants/jobs/prune-rate-limits', {
      method: 'POST',
      headers: { apikey: tp.serviceRoleKey },
      body: {},
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ deleted: finished.length })
    const after = await buckets()
    expect([...after.keys()].sort()).toEqual([...before.keys()].filter((b) => !finished.includes(b)).sort())
    expect(after.has(`key:${exhausted.id}`)).toBe(true)
    // The exhausted key is still refused; the pruned key starts a full window.
    expect((await tp.json('/v1/content', { token: exhausted.key })).status).toBe(429)
    const fresh = await tp.json('/v1/content', { token: idle.key })
    expect([fresh.status, fresh.headers.get('x-ratelimit-remaining')]).toEqual([200, '5'])
  })
})
