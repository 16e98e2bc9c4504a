import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateAlertResponse } from '../functions/usage/routes/alerts/create.ts'
import type { ListAlertsResponse } from '../functions/usage/routes/alerts/list.ts'
import type { GetAnalyticsResponse } from '../functions/usage/routes/analytics/get.ts'
import type { GetUsageResponse } from '../functions/usage/routes/usage/get.ts'
import { hotPathOf } from '../shared/infra/hot-path/hot-path.ts'
import { productIds, recordUsage, secondsToNextPeriod } from '../shared/services/usage/metering.ts'
import { formatUsd } from '../shared/services/usage/usage.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:30.000Z'))
// Seconds from the clock to 2026-12-01T00:00:00Z.
const TO_DECEMBER = 9 * 86_400 + 11 * 3600 + 59 * 60 + 30

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(() => tp.close())

const setPlan = (t: TestTenant, plan: string) =>
  tp.db.sql`update public.tenants set plan = ${plan} where id = ${t.tenantId}`
const seed = (t: TestTenant, product: keyof typeof productIds, units: number) => tp.db.sql`
  insert into public.usage_counters (tenant_id, product_id, period, units) values (${t.tenantId}, ${productIds[product]}, '2026-11-01', ${units})
  on conflict (tenant_id, product_id, period) do update set units = excluded.units`
/** Paid plans' counts are buffered for up to a second (usage-buffer.ts): write them now. */
const flushUsage = () => Promise.all(tp.instances.map((i) => hotPathOf(i.platform.deps).usage.flush()))
async function counter(t: TestTenant, product: keyof typeof productIds) {
  const [row] = await tp.db.sql<{ units: string }[]>`
    select units::text from public.usage_counters where tenant_id = ${t.tenantId} and product_id = ${productIds[product]} and period = '2026-11-01'`
  return row ? Number(row.units) : 0
}
const usageOf = async (t: TestTenant, q = '') =>
  (await tp.json<GetUsageResponse>(`/api/usage${q}`, { token: t.token })).body
const productUsage = (usage: GetUsageResponse, product: string) =>
  usage.products.find((p) => p.product === product)!

async function newKey(t: TestTenant, scopes: string[]) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: { name: 'k', environment: 'production', scopes, rate_limit_per_minute: 1000 },
  })
  return res.body.key as string
}

describe('metering', () => {
  it('counts exactly 500 metered requests racing from two instances', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    await setPlan(t, 'pro')
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        tp.request('/v1/content', { token: contentKey, instance: i % 2 }),
      ),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    await flushUsage()
    expect(await counter(t, 'content')).toBe(500)
    expect(productUsage(await usageOf(t), 'content')).toMatchObject({
      used: 500,
      quota: 5000,
      percent: 10,
      overage_units: 0,
      overage_cost: '0.00',
    })
  })

  it('stays exact for token amounts under concurrency (Assistant API)', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    await setPlan(t, 'business')
    const now = clock.now()
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        recordUsage(tp.db.sql, { tenantId: t.tenantId, product: 'assistant', units: 1000 + i, now }),
      ),
    )
    expect(await counter(t, 'assistant')).toBe(50 * 1000 + (49 * 50) / 2)
  })

  it('does not meter malformed requests', async () => {
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    expect((await tp.json('/v1/content?limit=0', { token: contentKey })).status).toBe(400)
    expect(await counter(t, 'content')).toBe(0)
    // The frame meters before the handler runs, so the cursor is checked with the query.
    const badCursor = await tp.json('/v1/content?cursor=bad', { token: contentKey })
    expect(badCursor.status).toBe(400)
    expect(badCursor.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] })
    expect(await counter(t, 'content')).toBe(0)
  })
})

describe('Free plan quota', () => {
  it('admits exactly the quota under concurrency and refuses the rest with 429 QUOTA_EXCEEDED, uncounted', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    const results = await Promise.all(
      Array.from({ length: 130 }, (_, i) => tp.json('/v1/content', { token: contentKey, instance: i % 2 })),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(100)
    const refused = results.filter((r) => r.status === 429)
    expect(refused).toHaveLength(30)
    expect(refused[0]!.body).toMatchObject({
      error: 'Too Many Requests',
      code: 'QUOTA_EXCEEDED',
      retryAfter: TO_DECEMBER,
    })
    expect(refused[0]!.headers.get('retry-after')).toBe(String(TO_DECEMBER))
    expect(await counter(t, 'content')).toBe(100)
    expect(secondsToNextPeriod(new Date('2026-12-31T23:59:59.500Z'))).toBe(1)
    // The usage report: at quota, no overage (Free is never billed).
    expect(productUsage(await usageOf(t), 'content')).toMatchObject({
      used: 100,
      quota: 100,
      percent: 100,
      overage_units: 0,
      overage_cost: '0.00',
    })
    // Upgrading lets calls through at once.
    await setPlan(t, 'pro')
    expect((await tp.json('/v1/content', { token: contentKey })).status).toBe(200)
  })

  it('refuses the Analytics API at exactly its quota of 1000', async () => {
    const t = await tp.createTenant()
    const key = await newKey(t, ['analytics:read'])
    await seed(t, 'analytics', 999)
    expect((await tp.json('/v1/analytics', { token: key })).status).toBe(200)
    const refused = await tp.json('/v1/analytics', { token: key })
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe('QUOTA_EXCEEDED')
    // The message names the product, the use and the quota: what a person needs to act on it.
    expect(refused.body.message).toBe(
      "The free plan's monthly quota for the analytics API is used up (1,000 of 1,000 requests this month)",
    )
    expect(await counter(t, 'analytics')).toBe(1000)
  })

  it('opens a new quota with the next month', async () => {
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    await seed(t, 'content', 100)
    expect((await tp.json('/v1/content', { token: contentKey })).status).toBe(429)
    clock.set(new Date('2026-12-01T00:00:00.000Z'))
    try {
      expect((await tp.json('/v1/content', { token: contentKey })).status).toBe(200)
    } finally {
      clock.set(new Date('2026-11-21T12:00:30.000Z'))
    }
    expect((await usageOf(t, '?period=2026-12')).products[0]!.used).toBe(1)
  })
})

describe('paid plans and overage', () => {
  it('lets a Pro tenant past its quota and bills exactly the spec rate for every unit over it', async () => {
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    await setPlan(t, 'pro')
    await seed(t, 'content', 4990)
    const results = await Promise.all(
      Array.from({ length: 13 }, (_, i) => tp.request('/v1/content', { token: contentKey, instance: i % 2 })),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    await flushUsage()
    await seed(t, 'assistant', 500_123)
    await seed(t, 'analytics', 50_007)
    await seed(t, 'distribution', 5_001)
    await seed(t, 'identity', 50_003)
    const usage = await usageOf(t)
    expect(usage).toMatchObject({ period: '2026-11', plan: 'pro', currency: 'USD' })
    expect(productUsage(usage, 'content')).toEqual({
      product_id: productIds.content,
      product: 'content',
      name: 'Content API',
      unit: 'request',
      used: 5003,
      quota: 5000,
      percent: 100.06,
      overage_units: 3,
      overage_rate: '0.05',
      overage_cost: '0.15',
    })
    expect(productUsage(usage, 'assistant')).toMatchObject({
      overage_units: 123,
      overage_rate: '0.00001',
      overage_cost: '0.00123',
    })
    expect(productUsage(usage, 'analytics')).toMatchObject({
      overage_units: 7,
      overage_rate: '0.001',
      overage_cost: '0.007',
    })
    expect(productUsage(usage, 'distribution')).toMatchObject({
      overage_units: 1,
      overage_rate: '0.02',
      overage_cost: '0.02',
    })
    expect(productUsage(usage, 'identity')).toMatchObject({
      overage_units: 3,
      overage_rate: '0.10',
      overage_cost: '0.30',
    })
    // 0.15 + 0.00123 + 0.007 + 0.02 + 0.30, exactly.
    expect(usage.total_overage_cost).toBe('0.47823')
  })

  it('bills large token counts without losing a digit', async () => {
    const t = await tp.createTenant()
    await setPlan(t, 'business')
    await seed(t, 'assistant', 5_000_000 + 123_456_789)
    expect(productUsage(await usageOf(t), 'assistant')).toMatchObject({
      overage_units: 123_456_789,
      overage_cost: '1234.56789',
    })
  })

  it('gives Enterprise unlimited use and no overage', async () => {
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    await setPlan(t, 'enterprise')
    await seed(t, 'content', 10_000_000)
    expect((await tp.json('/v1/content', { token: contentKey })).status).toBe(200)
    expect(productUsage(await usageOf(t), 'content')).toMatchObject({
      used: 10_000_001,
      quota: null,
      percent: null,
      overage_cost: '0.00',
    })
  })

  it('formats numeric amounts exactly', () => {
    expect(formatUsd('0.0000000000')).toBe('0.00')
    expect(formatUsd('12.3000000000')).toBe('12.30')
    expect(formatUsd('0.0000100000')).toBe('0.00001')
    expect(formatUsd('7')).toBe('7.00')
  })
})

describe('GET /api/usage', () => {
  it('refuses a malformed period and keys without billing:read; a key with it reads usage', async () => {
    expect((await tp.json('/api/usage?period=2026-13', { token: a.token })).status).toBe(400)
    expect((await tp.json('/api/usage', { token: await newKey(a, ['content:read']) })).status).toBe(403)
    const res = await tp.json<GetUsageResponse>('/api/usage', { token: await newKey(a, ['billing:read']) })
    expect(res.status).toBe(200)
    expect(res.body.products.map((p: { product: string }) => p.product)).toEqual([
      'content',
      'assistant',
      'analytics',
      'distribution',
      'identity',
    ])
  })
})

describe('usage alerts', () => {
  const alert = (productId: string = productIds.content, extra: Record<string, unknown> = {}) => ({
    product_id: productId,
    threshold_percent: 50,
    notification_type: 'email',
    notification_target: 'ops@example.com',
    ...extra,
  })

  it('creates, lists and deletes alerts (owners and admins)', async () => {
    const created = await tp.json<CreateAlertResponse>('/api/usage-alerts', { token: a.token, body: alert() })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({ ...alert(), product: 'content', id: expect.any(String) })
    expect((await tp.json('/api/usage-alerts', { token: a.token, body: alert() })).status).toBe(409)
    const member = await addMember(tp, a.tenantId, 'member')
    expect(
      (
        await tp.json('/api/usage-alerts', {
          token: member.token,
          body: alert(productIds.content, { threshold_percent: 60 }),
        })
      ).status,
    ).toBe(403)
    const list = await tp.json<ListAlertsResponse>('/api/usage-alerts', { token: member.token })
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(created.body.id)
    expect(
      (await tp.json(`/api/usage-alerts/${created.body.id}`, { method: 'DELETE', token: member.token }))
        .status,
    ).toBe(403)
    expect(
      (await tp.json(`/api/usage-alerts/${created.body.id}`, { method: 'DELETE', token: a.token })).status,
    ).toBe(204)
    expect(
      (await tp.json(`/api/usage-alerts/${created.body.id}`, { method: 'DELETE', token: a.token })).status,
    ).toBe(404)
  })

  it.each([
    ['threshold 0', alert(productIds.content, { threshold_percent: 0 }), 'threshold_percent'],
    ['threshold 101', alert(productIds.content, { threshold_percent: 101 }), 'threshold_percent'],
    ['fractional threshold', alert(productIds.content, { threshold_percent: 50.5 }), 'threshold_percent'],
    ['unknown product', alert('11111111-1111-4111-8111-111111111111'), 'product_id'],
    ['product not a uuid', alert('content'), 'product_id'],
    ['sms', alert(productIds.content, { notification_type: 'sms' }), 'notification_type'],
    [
      'bad e-mail target',
      alert(productIds.content, { notification_target: 'not-mail' }),
      'notification_target',
    ],
    ['unknown field', alert(productIds.content, { channel: 'x' }), '(body)'],
    [
      'missing type',
      { product_id: productIds.content, threshold_percent: 5, notification_target: 'a@b.co' },
      'notification_type',
    ],
  ])('refuses %s with 400 and stores nothing', async (_n, body, field) => {
    const [before] = await tp.db.sql`select count(*)::int as n from public.usage_alerts`
    const res = await tp.json('/api/usage-alerts', { token: a.token, body })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' })
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    const [after] = await tp.db.sql`select count(*)::int as n from public.usage_alerts`
    expect(after!.n).toBe(before!.n)
  })

  it('notifies at 80%, 90%, 100% and a tenant threshold exactly once each, under concurrency and with the job', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const contentKey = await newKey(t, ['content:read'])
    const admin = await addMember(tp, t.tenantId, 'admin')
    await addMember(tp, t.tenantId, 'member')
    expect(
      (
        await tp.json('/api/usage-alerts', {
          token: t.token,
          body: alert(productIds.content, { threshold_percent: 50 }),
        })
      ).status,
    ).toBe(201)
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        tp.request('/v1/content', { token: contentKey, instance: i % 2 }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(100)
    for (let i = 0; i < 3; i++) await tp.instances[i % 2]!.platform.runJob('usage/jobs/check-usage-alerts')
    const sent = await tp.db.sql<{ recipient: string; dedupe_key: string }[]>`
      select recipient, dedupe_key from public.notifications where tenant_id = ${t.tenantId} and kind = 'usage.alert' order by dedupe_key`
    const month = `usage-alert:${t.tenantId}:${productIds.content}:2026-11`
    expect(sent.map((n) => n.dedupe_key).sort()).toEqual(
      [
        `${month}:50:ops@example.com`,
        ...[80, 90, 100].flatMap((th) => [`${month}:${th}:${t.email}`, `${month}:${th}:${admin.email}`]),
      ].sort(),
    )
  })

  it('sends an alert created after its threshold was passed, once', async () => {
    const t = await tp.createTenant()
    await seed(t, 'content', 30)
    expect(
      (
        await tp.json('/api/usage-alerts', {
          token: t.token,
          body: alert(productIds.content, { threshold_percent: 25 }),
        })
      ).status,
    ).toBe(201)
    await tp.instances[0]!.platform.runJob('usage/jobs/check-usage-alerts')
    const [n] = await tp.db
      .sql`select count(*)::int as n from public.notifications where tenant_id = ${t.tenantId} and kind = 'usage.alert'`
    expect(n!.n).toBe(1)
  })

  it('runs the job only with the service-role key', async () => {
    expect(
      (await tp.json('/functions/v1/usage/jobs/check-usage-alerts', { method: 'POST', token: a.token }))
        .status,
    ).toBe(401)
  })
})

describe('GET /v1/analytics', () => {
  it('returns usage and event counts for the period, needs analytics:read, and is metered', async () => {
    const t = await tp.createTenant()
    await setPlan(t, 'pro')
    const key = await newKey(t, ['analytics:read'])
    const contentKey = await tp.json('/api/api-keys', {
      token: t.token,
      body: { name: 'x', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 5 },
    })
    await tp.request('/v1/content', { token: contentKey.body.key as string })
    const res = await tp.json<GetAnalyticsResponse>('/v1/analytics', { token: key })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.from).toBe('2026-11-01T00:00:00.000Z')
    expect(res.body.events).toEqual([{ type: 'api_key.created', count: 2 }])
    expect(res.body.total_events).toBe(2)
    expect(res.body.usage).toEqual(
      expect.arrayContaining([
        { period: '2026-11', product_id: productIds.content, product: 'content', units: 1 },
        { period: '2026-11', product_id: productIds.analytics, product: 'analytics', units: 1 },
      ]),
    )
    expect(await counter(t, 'analytics')).toBe(1)
    expect((await tp.json('/v1/analytics', { token: await newKey(t, ['content:read']) })).status).toBe(403)
    const backwards = await tp.json('/v1/analytics?from=2026-11-10T00:00:00Z&to=2026-11-01T00:00:00Z', {
      token: key,
    })
    expect(backwards.status).toBe(400)
    expect(
      (await tp.json('/v1/analytics?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', { token: key }))
        .status,
    ).toBe(400)
    expect((await tp.json('/v1/analytics?from=yesterday', { token: key })).status).toBe(400)
    expect(await counter(t, 'analytics')).toBe(1)
  })
})

describe('tenant isolation', () => {
  it("keeps tenant B away from tenant A's usage and alerts", async () => {
    await seed(a, 'identity', 77)
    const created = await tp.json('/api/usage-alerts', { token: a.token, body: alert2() })
    expect(created.status).toBe(201)
    expect(productUsage(await usageOf(b), 'identity').used).toBe(0)
    const list = await tp.json('/api/usage-alerts', { token: b.token })
    expect(list.body.data).toEqual([])
    expect(
      (await tp.json(`/api/usage-alerts/${created.body.id}`, { method: 'DELETE', token: b.token })).status,
    ).toBe(404)
    const [still] = await tp.db
      .sql`select count(*)::int as n from public.usage_alerts where id = ${created.body.id}`
    expect(still!.n).toBe(1)
    const analytics = await tp.json('/v1/analytics', { token: await newKey(b, ['analytics:read']) })
    expect(analytics.body.usage.find((u: { product: string }) => u.product === 'identity')).toBeUndefined()
  })
})

function alert2() {
  return {
    product_id: productIds.identity,
    threshold_percent: 90,
    notification_type: 'email',
    notification_target: 'a@example.com',
  }
}
