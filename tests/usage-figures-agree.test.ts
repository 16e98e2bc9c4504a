import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GetDailyUsageResponse } from '../functions/usage/routes/usage/daily.ts'
import { periodOf, productIds } from '../shared/services/usage/metering.ts'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The Usage page's two figures are one: GET /api/usage (the monthly counter, what the quota
 * checks) and the sum of GET /api/usage/daily's days agree after every kind of model call (a
 * turn, its conversation's title, a generation, a call that failed), each of which reserves its
 * most tokens first on Free and gives the unused part back. Before, the per-day table kept every
 * reservation whole: a day showed 64,543 tokens while the month said 840.
 */

let tp: TestPlatform
let llm: ScriptedLlm
const OPENAI = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'

beforeAll(async () => {
  llm = await startScriptedLlm()
  tp = await startTestPlatform({ env: { OPENAI_BASE_URL: llm.openaiBaseUrl } })
}, 120_000)
afterAll(async () => {
  await tp?.close()
  await llm?.close()
})

async function figures(t: TestTenant): Promise<{ month: number; days: number }> {
  const [summary, daily] = await Promise.all([
    tp.json('/api/usage', { token: t.token }),
    tp.json<GetDailyUsageResponse>('/api/usage/daily', { token: t.token }),
  ])
  expect([summary.status, daily.status]).toEqual([200, 200])
  const month = summary.body.products.find((p: { product: string }) => p.product === 'assistant').used
  const days = daily.body.products.find((p) => p.product === 'assistant')!.daily.reduce((s, n) => s + n, 0)
  return { month, days }
}

describe('the Usage page', () => {
  it('says the same number of tokens in its summary and its days after turns, titles, generations and failures', async () => {
    const t = await tp.createTenant() // Free: every model call reserves its most tokens first
    const made = await tp.json('/api/credentials', {
      token: t.token,
      body: { provider_id: OPENAI, name: 'openai', environment: 'production', credential: llm.key },
    })
    expect(made.status).toBe(201)
    llm.titleReply = { text: 'Spring menu', usage: { input: 40, output: 3 } }
    llm.reset([{ text: 'Here is a plan for the week.', usage: { input: 300, output: 20 } }])

    // A turn, then its conversation's title (a second, smaller call).
    const conversation = await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })
    const said = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'Plan the spring menu launch' },
    })
    expect(said.status, JSON.stringify(said.body)).toBe(200)
    await expect
      .poll(
        async () =>
          (await tp.json(`/v1/assistant/conversations/${conversation.body.id}`, { token: t.token })).body
            .title_source,
        { timeout: 20_000, interval: 50 },
      )
      .toBe('model')

    // A generation (a job).
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${t.tenantId}, 'News') returning id`
    const [source] = await tp.db.sql<{ id: string }[]>`
      insert into public.sources (tenant_id, site_id, name, kind, config)
      values (${t.tenantId}, ${site!.id}, 'Feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
    const [item] = await tp.db.sql<{ id: string }[]>`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, text)
      values (${t.tenantId}, ${source!.id}, 'item-1', 'https://example.com/p/1', 'Post 1', 'The body of post 1')
      returning id`
    llm.reset([{ text: '# The week\n\nWhat happened.', usage: { input: 200, output: 50 } }])
    const generated = await tp.json('/functions/v1/generate-article', {
      headers: { apikey: tp.anonKey, authorization: `Bearer ${t.token}` },
      body: { site_id: site!.id, item_ids: [item!.id] },
    })
    expect(generated.status, JSON.stringify(generated.body)).toBe(202)
    await expect
      .poll(
        async () => (await tp.json(`/api/jobs/${generated.body.job_id}`, { token: t.token })).body.status,
        { timeout: 20_000, interval: 50 },
      )
      .toBe('succeeded')

    // A call the provider refuses: its reservation goes back whole.
    llm.reset([{ status: 500 }])
    const failed = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'And the desserts?' },
    })
    expect(failed.body.turn?.status).toBe('failed')

    // What the provider reported, and nothing of the reservations: 320 + 43 + 250.
    await expect.poll(() => figures(t), { timeout: 10_000, interval: 50 }).toEqual({ month: 613, days: 613 })
  })

  it('takes a settlement back from the days before when its own day holds less (a reservation settled after midnight)', async () => {
    const t = await tp.createTenant()
    const period = periodOf(new Date())
    // A reservation of 5,000 tokens counted on the month's first day (before today or today itself)…
    await tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      values (${t.tenantId}, ${productIds.assistant}, ${period}, 5000)`
    await tp.db.sql`
      update public.usage_counters set daily_units = array[5000::bigint] || array_fill(0::bigint, array[30])
      where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${period}`
    // …settled today to the 120 the provider reported.
    await tp.db.sql`
      select * from private.settle_call_usage(${t.tenantId}, ${productIds.assistant}, 5000, 120, ${period})`
    expect(await figures(t)).toEqual({ month: 120, days: 120 })
  })
})
