import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GetDailyUsageResponse } from '../functions/usage/routes/usage/daily.ts'
import { productIds } from '../shared/services/usage/metering.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * Usage per day (GET /api/usage/daily): every metered call also counts on its day, through the
 * trigger on the monthly counter, so the days of a month add up to the month's counter.
 */

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
// A month already over: the database's date lies after it, so its calls count on its last day.
const clock = new TestClock(new Date('2026-10-15T12:00:00.000Z'))

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(() => tp.close())

const daily = (t: TestTenant | string, period: string) =>
  tp.json<GetDailyUsageResponse>(`/api/usage/daily?period=${period}`, {
    token: typeof t === 'string' ? t : t.token,
  })
const content = (d: GetDailyUsageResponse) => d.products.find((p) => p.product === 'content')!

describe('GET /api/usage/daily', () => {
  it("counts each metered call on its day, and the month's days add up to its counter", async () => {
    // The Content API meters keyed requests; keyed reads are counted in memory and written within a second.
    const made = await tp.json('/api/api-keys', {
      token: a.token,
      body: {
        name: 'reader',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 60,
      },
    })
    expect(made.status).toBe(201)
    for (let i = 0; i < 3; i++)
      expect((await tp.json('/v1/content', { token: made.body.key })).status).toBe(200)
    await expect
      .poll(async () => content((await daily(a, '2026-10')).body).daily.reduce((sum, n) => sum + n, 0), {
        timeout: 10_000,
      })
      .toBe(3)
    const res = await daily(a, '2026-10')
    expect(res.status).toBe(200)
    expect(res.body.period).toBe('2026-10')
    expect(res.body.days).toHaveLength(31)
    expect(res.body.days[0]).toBe('2026-10-01')
    expect(res.body.days[30]).toBe('2026-10-31')
    expect(res.body.products.map((p) => p.product)).toEqual([
      'content',
      'assistant',
      'analytics',
      'distribution',
      'identity',
    ])
    const c = content(res.body)
    expect(c).toMatchObject({ product_id: productIds.content, unit: 'request', quota: 100 })
    expect(c.daily).toHaveLength(31)
    // The database's date is after October: October's calls count on its last day.
    expect(c.daily[30]).toBe(3)
    expect(c.daily.reduce((n, d) => n + d, 0)).toBe(3)
    const monthly = await tp.json(`/api/usage?period=2026-10`, { token: a.token })
    expect(monthly.body.products.find((p: { product: string }) => p.product === 'content').used).toBe(3)
    // Other products and other months: nothing.
    expect(
      res.body.products.filter((p) => p.product !== 'content').every((p) => p.daily.every((n) => n === 0)),
    ).toBe(true)
    expect(content((await daily(a, '2026-09')).body).daily.every((n) => n === 0)).toBe(true)
    expect((await daily(a, '2026-09')).body.days).toHaveLength(30)
  })

  it("counts today's use on the database's today, as any change of the counter does", async () => {
    const [today] = await tp.db.sql<{ day: string; month: string }[]>`
      select to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
             to_char((now() at time zone 'UTC')::date, 'YYYY-MM') as month`
    await tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      values (${a.tenantId}, ${productIds.assistant}, ${`${today!.month}-01`}, 1200)
      on conflict (tenant_id, product_id, period) do update set units = public.usage_counters.units + 1200`
    await tp.db.sql`
      update public.usage_counters set units = units + 300
      where tenant_id = ${a.tenantId} and product_id = ${productIds.assistant} and period = ${`${today!.month}-01`}`
    const res = (await daily(a, today!.month)).body
    const assistant = res.products.find((p) => p.product === 'assistant')!
    expect(assistant.daily[res.days.indexOf(today!.day)]).toBe(1500)
    expect(assistant.daily.reduce((n, d) => n + d, 0)).toBe(1500)
    expect(assistant.quota).toBe(10000)
  })

  it('shows a tenant its own days only; members read; keys need billing:read; a bad month is refused', async () => {
    expect(content((await daily(b, '2026-10')).body).daily.every((n) => n === 0)).toBe(true)
    const member = await addMember(tp, a.tenantId, 'member')
    expect(content((await daily(member.token, '2026-10')).body).daily[30]).toBe(3)
    const key = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 100 },
    })
    const refused = await tp.json('/api/usage/daily', { token: key.body.key })
    expect(refused.status).toBe(403)
    for (const bad of ['2026-13', '2026-1', 'x']) expect((await daily(a, bad)).status, bad).toBe(400)
  })
})
