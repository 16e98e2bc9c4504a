// The delivery queue under failure: two instances receiving the same webhook id at once, a
// processor killed mid-processing (its lease expires, another processes the delivery), and a
// delivery that keeps failing (retries on the backoff schedule, then a dead letter, then replay).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kickProcessing, LEASE_MS, RETRY_DELAYS_MS } from '../shared/services/commerce/process.ts'
import {
  post,
  shopifyHeaders,
  shopifyOrder,
  shopifyProduct,
  storePath,
  waitForDelivery,
} from './support/commerce.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let storeId: string
const clock = new TestClock()
const DOMAIN = 'twin.myshopify.com'
const SECRET = 'shpss_twin_secret_1'

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  storeId = (
    await tp.json('/api/commerce/stores', {
      token: a.token,
      body: { platform: 'shopify', shop_domain: DOMAIN, name: 'Twin', secret: SECRET },
    })
  ).body.id
})
afterAll(async () => {
  await tp?.close()
})

const runJob = async (instance = 0) => {
  const res = await tp.instances[instance]!.platform.runJob('commerce-webhook/jobs/process')
  expect(res.status).toBe(200)
  return (await res.json()) as { claimed: number; processed: number; retried: number; dead_lettered: number }
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('commerce delivery queue', () => {
  it('stores and processes a webhook id once when two instances receive it at the same moment', async (ctx) => {
    needsRealConcurrency(ctx)
    const ids = Array.from({ length: 8 }, (_, i) => `7000000000000000${100 + i}`)
    const results = await Promise.all(
      ids.map(async (id, i) => {
        const body = shopifyOrder({ id, updatedAt: '2024-03-01T00:00:00Z' })
        const headers = shopifyHeaders({
          domain: DOMAIN,
          secret: SECRET,
          topic: 'orders/create',
          body,
          webhookId: `twin-${i}`,
        })
        // Four copies at once: two to each instance.
        return Promise.all(
          [0, 1, 0, 1].map((instance) => post(tp, storePath(storeId), headers, body, instance)),
        )
      }),
    )
    for (const copies of results) {
      expect(copies.map((r) => r.status)).toEqual([200, 200, 200, 200])
      const statuses = copies.map((r) => r.body.status).sort()
      expect(statuses).toEqual(['accepted', 'duplicate', 'duplicate', 'duplicate'])
    }
    const accepted = results.map(
      (copies) => copies.find((r) => r.body.status === 'accepted')!.body.delivery_id,
    )
    for (const id of accepted) await waitForDelivery(tp, a.token, id)
    await runJob(0)
    await runJob(1)
    const rows = await tp.db.sql<{ webhook_id: string; status: string; attempts: number }[]>`
      select webhook_id, status, attempts from public.commerce_deliveries where webhook_id like 'twin-%' order by webhook_id`
    expect(rows).toHaveLength(ids.length)
    expect(rows.every((r) => r.status === 'processed' && r.attempts === 1)).toBe(true)
    const orders = await tp.db
      .sql`select external_id from public.commerce_orders where store_id = ${storeId} order by external_id`
    expect(orders.map((o) => o.external_id)).toEqual(ids)
  })

  it('processes a delivery whose processor was killed, once its lease has expired', async () => {
    const body = shopifyProduct({
      id: '3000000000000000003',
      updatedAt: '2024-04-01T00:00:00Z',
      title: 'Orphaned',
    })
    // Receipts in the test before kicked processing on both instances; let those runs finish, or
    // one of them would claim this delivery before the processor below.
    await Promise.all(tp.instances.map((i) => kickProcessing(i.platform.deps)))
    const now = clock.now()
    // Queued as the receiver stores it, without the receipt's own kick (which would win the race).
    const [row] = await tp.db.sql<{ id: string }[]>`
      insert into public.commerce_deliveries (tenant_id, store_id, platform, topic, webhook_id, payload, payload_bytes, status, next_attempt_at, received_at, updated_at)
      values (${a.tenantId}, ${storeId}, 'shopify', 'products/create', 'killed-1', ${Buffer.from(body)}, ${body.length}, 'pending', ${now}, ${now}, ${now})
      returning id`

    const script = fileURLToPath(new URL('./support/commerce-claim-and-hang.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', script, tp.db.url, now.toISOString()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const claimed = await new Promise<string[]>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
        if (out.includes('\n')) resolve(JSON.parse(out))
      })
      child.on('exit', (code) => reject(new Error(`processor exited early (${code})`)))
    })
    expect(claimed).toEqual([row!.id])
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))

    // The lease still holds: no other processor touches it.
    expect((await runJob(1)).claimed).toBe(0)
    let [state] = await tp.db
      .sql`select status, attempts from public.commerce_deliveries where id = ${row!.id}`
    expect(state).toMatchObject({ status: 'pending', attempts: 1 })

    clock.advance(LEASE_MS + 1000)
    const swept = await runJob(1)
    expect(swept).toMatchObject({ claimed: 1, processed: 1 })
    ;[state] = await tp.db
      .sql`select status, attempts, outcome from public.commerce_deliveries where id = ${row!.id}`
    expect(state).toMatchObject({ status: 'processed', attempts: 2, outcome: 'applied' })
    const [product] = await tp.db
      .sql`select title from public.commerce_products where external_id = '3000000000000000003'`
    expect(product!.title).toBe('Orphaned')
  }, 30_000)

  it('retries a failing delivery on the backoff schedule, dead-letters it, and replays it', async () => {
    await tp.db.sql.unsafe(`
      create function public.test_products_outage() returns trigger language plpgsql as $$
      begin raise exception 'simulated outage'; end $$;
      create trigger test_products_outage before insert or update on public.commerce_products
        for each row execute function public.test_products_outage();`)
    const body = shopifyProduct({
      id: '4000000000000000004',
      updatedAt: '2024-05-01T00:00:00Z',
      title: 'Eventually',
    })
    const receipt = await post(
      tp,
      storePath(storeId),
      shopifyHeaders({ domain: DOMAIN, secret: SECRET, topic: 'products/create', body }),
      body,
    )
    expect(receipt.body.status).toBe('accepted')
    const id = receipt.body.delivery_id as string
    const delivery = () => tp.json(`/api/commerce/deliveries/${id}`, { token: a.token }).then((r) => r.body)

    // Attempt 1 (the receipt's kick) fails; attempts 2..5 follow the schedule, then the dead letter.
    await until('attempt 1', async () => (await delivery()).attempts === 1 && (await delivery()).last_error)
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      const d = await delivery()
      expect(d).toMatchObject({ status: 'pending', attempts: i + 1 })
      expect(new Date(d.next_attempt_at).getTime() - clock.now().getTime()).toBe(delay)
      clock.advance(delay - 1000)
      expect((await runJob()).claimed).toBe(0) // not due yet
      clock.advance(1000)
      expect((await runJob()).claimed).toBe(1)
    }
    const dead = await delivery()
    expect(dead).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null })
    expect(dead.last_error).toMatch(/retried on the backoff schedule/)
    const failed = await tp.json('/api/commerce/deliveries?status=failed', { token: a.token })
    expect(failed.body.data.map((d: { id: string }) => d.id)).toEqual([id])

    // The outage ends; the tenant replays the dead letter.
    await tp.db.sql.unsafe('drop trigger test_products_outage on public.commerce_products')
    const replay = await tp.json(`/api/commerce/deliveries/${id}/replay`, { method: 'POST', token: a.token })
    expect(replay).toMatchObject({ status: 200, body: { status: 'pending' } })
    expect(await waitForDelivery(tp, a.token, id)).toMatchObject({
      status: 'processed',
      attempts: 6,
      last_error: null,
    })
    const [product] = await tp.db
      .sql`select title from public.commerce_products where external_id = '4000000000000000004'`
    expect(product!.title).toBe('Eventually')
    // Replaying anything but a dead letter is a conflict.
    expect(
      (await tp.json(`/api/commerce/deliveries/${id}/replay`, { method: 'POST', token: a.token })).status,
    ).toBe(409)
  }, 30_000)
})
