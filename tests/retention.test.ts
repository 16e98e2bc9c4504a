// The prune-retention job removes what is past its retention period and keeps
// what the delivery log and the statistics promise: pending deliveries, the last 30 days of the
// delivery log, and event and tool-usage counts as daily aggregates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let t: TestTenant
const day = 86_400_000
const ago = (days: number) => new Date(Date.now() - days * day)

beforeAll(async () => {
  tp = await startTestPlatform()
  t = await tp.createTenant()
})
afterAll(() => tp?.close())

const run = async () => {
  const res = await tp.instances[0]!.platform.runJob('tenants/jobs/prune-retention')
  expect(res.status).toBe(200)
  return res.json()
}

describe('prune-retention', () => {
  it('prunes finished deliveries past 30 days and keeps pending ones and the last 30 days', async () => {
    const [sub] = await tp.db.sql`
      insert into public.webhook_subscriptions (tenant_id, url, events, secret_ciphertext)
      values (${t.tenantId}, 'https://example.com/h', '{api_key.created}', 'v1:1:eA==') returning id`
    const delivery = async (event: string, status: string, lastAttempt: Date) => {
      const [d] = await tp.db.sql`
        insert into public.webhook_deliveries
          (tenant_id, subscription_id, event_id, event_type, event_created_at, data, status, attempts, last_attempt_at, next_attempt_at, created_at)
        values (${t.tenantId}, ${sub!.id}, ${event}, 'api_key.created', ${lastAttempt}, '{}', ${status}, 1, ${lastAttempt},
                ${status === 'pending' ? lastAttempt : null}, ${lastAttempt})
        returning id`
      await tp.db.sql`
        insert into public.webhook_delivery_attempts
          (tenant_id, subscription_id, delivery_id, event_id, event_type, attempt, success, duration_ms, attempted_at)
        values (${t.tenantId}, ${sub!.id}, ${d!.id}, ${event}, 'api_key.created', 1, ${status === 'succeeded'}, 5, ${lastAttempt})`
      return d!.id as string
    }
    await delivery('evt_old_ok', 'succeeded', ago(31))
    await delivery('evt_old_failed', 'failed', ago(45))
    const pending = await delivery('evt_old_pending', 'pending', ago(60))
    const recent = await delivery('evt_recent', 'failed', ago(29))
    const result = await run()
    expect(result).toMatchObject({ webhook_deliveries: 2, webhook_attempts: 2 })
    const left = await tp.db
      .sql`select id from public.webhook_deliveries where subscription_id = ${sub!.id} order by id`
    expect(left.map((r) => r.id).sort()).toEqual([pending, recent].sort())
    const attempts = await tp.db.sql`
      select count(*)::int as n from public.webhook_delivery_attempts where subscription_id = ${sub!.id}`
    expect(attempts[0]!.n).toBe(2)
  })

  it('rolls old outbox events up into daily counts that the Analytics API still shows', async () => {
    const old = new Date(Date.UTC(2026, 0, 10, 12))
    await tp.db.sql`
      insert into public.event_outbox (id, tenant_id, type, data, created_at)
      select 'evt_ret_a' || g, ${t.tenantId}, 'site.created', '{}', ${old} from generate_series(1, 3) g`
    await tp.db.sql`
      insert into public.event_outbox (id, tenant_id, type, data, created_at)
      values ('evt_ret_b', ${t.tenantId}, 'site.deleted', '{}', ${old})`
    const query = '/v1/analytics?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z'
    const before = await tp.json(query, { token: t.token })
    expect(before.status, JSON.stringify(before.body)).toBe(200)
    expect(before.body.total_events).toBe(4)

    const result = await run()
    expect(result.outbox_events).toBeGreaterThanOrEqual(4)
    const [raw] = await tp.db.sql`
      select count(*)::int as n from public.event_outbox where tenant_id = ${t.tenantId} and created_at < ${ago(90)}`
    expect(raw!.n).toBe(0)
    const after = await tp.json(query, { token: t.token })
    expect(after.body.events).toEqual(before.body.events)
    expect(after.body.total_events).toBe(4)
    // Running again changes nothing (nothing left to roll up).
    await run()
    expect((await tp.json(query, { token: t.token })).body.total_events).toBe(4)
  })

  it('rolls tool usage past its period up into daily aggregates and keeps the last 90 days raw', async () => {
    const integration = crypto.randomUUID()
    const usage = (at: Date, success: boolean, ms: number, by: string) => tp.db.sql`
      insert into public.integration_usage (tenant_id, integration_id, tool_name, action, triggered_by, success, response_time_ms, created_at)
      values (${t.tenantId}, ${integration}, 'x:y', 'write', ${by}, ${success}, ${ms}, ${at})`
    const old = new Date(Date.UTC(2025, 5, 1, 10))
    await usage(old, true, 100, 'assistant')
    await usage(old, false, 300, 'manual')
    await usage(ago(10), true, 50, 'automation')
    const result = await run()
    expect(result.tool_usage).toBe(2)
    const [agg] = await tp.db.sql`
      select day::text, total_calls, success_count, response_time_ms_sum::int as ms, assistant, automation, manual
      from public.integration_usage_daily where integration_id = ${integration}`
    expect(agg).toEqual({
      day: '2025-06-01',
      total_calls: 2,
      success_count: 1,
      ms: 400,
      assistant: 1,
      automation: 0,
      manual: 1,
    })
    const [raw] = await tp.db.sql`
      select count(*)::int as n from public.integration_usage where integration_id = ${integration}`
    expect(raw!.n).toBe(1)
  })

  it('prunes commerce deliveries and background jobs that finished past 30 days, and keeps the rest', async () => {
    const [store] = await tp.db.sql`
      insert into public.commerce_stores (tenant_id, platform, shop, name, secret_ciphertext)
      values (${t.tenantId}, 'shopify', 'retention.myshopify.com', 'Retention', 'v1:1:eA==') returning id`
    const delivery = async (webhookId: string, status: string, changed: Date) => {
      await tp.db.sql`
        insert into public.commerce_deliveries
          (tenant_id, store_id, platform, topic, webhook_id, payload_bytes, status, received_at, updated_at)
        values (${t.tenantId}, ${store!.id}, 'shopify', 'orders/create', ${webhookId}, 10, ${status}, ${changed}, ${changed})`
    }
    await delivery('old-processed', 'processed', ago(31))
    await delivery('old-ignored', 'ignored', ago(90))
    await delivery('old-dead-letter', 'failed', ago(40))
    await delivery('old-pending', 'pending', ago(60))
    await delivery('recent-dead-letter', 'failed', ago(29))

    const job = async (kind: string, status: string, finished: Date | null, created: Date) => {
      const [j] = await tp.db.sql`
        insert into public.jobs (tenant_id, kind, status, finished_at, created_at, updated_at)
        values (${t.tenantId}, ${kind}, ${status}, ${finished}, ${created}, ${finished ?? created}) returning id`
      return j!.id as string
    }
    await job('retention.old-ok', 'succeeded', ago(31), ago(32))
    await job('retention.old-failed', 'failed', ago(45), ago(45))
    const recent = await job('retention.recent', 'succeeded', ago(5), ago(5))
    const queued = await job('retention.queued', 'queued', null, ago(60))
    const running = await job('retention.running', 'running', null, ago(60))

    const result = await run()
    expect(result).toMatchObject({ commerce_deliveries: 3, jobs: 2 })
    const deliveries = await tp.db.sql`
      select webhook_id from public.commerce_deliveries where store_id = ${store!.id} order by webhook_id`
    expect(deliveries.map((d) => d.webhook_id)).toEqual(['old-pending', 'recent-dead-letter'])
    const jobs = await tp.db.sql`select id from public.jobs where tenant_id = ${t.tenantId}`
    expect(jobs.map((j) => j.id).sort()).toEqual([recent, queued, running].sort())
  })

  it('is the service role only', async () => {
    expect(
      (await tp.json('/functions/v1/tenants/jobs/prune-retention', { method: 'POST', token: t.token }))
        .status,
    ).toBe(401)
  })
})
