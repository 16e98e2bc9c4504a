// One tenant's receiver that never answers must not hold up another tenant's
// deliveries. Real receivers on loopback, the in-process kick after each commit (as `npm start`
// runs it), real clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

const PER_ENDPOINT = 5
let tp: TestPlatform
let slow: TestTenant
let healthy: TestTenant
let hanging: WebhookReceiver
let ok: WebhookReceiver

beforeAll(async () => {
  tp = await startTestPlatform({
    env: { WEBHOOK_MAX_IN_FLIGHT: '20', WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(PER_ENDPOINT) },
  })
  hanging = await startReceiver(() => 'hang')
  ok = await startReceiver()
  slow = await tp.createTenant()
  healthy = await tp.createTenant()
  for (const [t, r] of [
    [slow, hanging],
    [healthy, ok],
  ] as const) {
    const res = await tp.json('/api/webhooks', {
      token: t.token,
      body: { url: r.url, events: ['api_key.created'] },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
})
afterAll(async () => {
  await hanging?.close()
  await ok?.close()
  await tp?.close()
})

/** Creates a key as `t` (an api_key.created event) and returns ms from sending to the POST arriving at `r`. */
async function commitToFirstAttempt(t: TestTenant, r: WebhookReceiver, name: string): Promise<number> {
  const before = r.received.length
  const started = performance.now()
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: { name, environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 },
  })
  expect(res.status).toBe(201)
  await waitFor(() => r.received.length > before, 9000, `delivery of ${name}`)
  return r.received[before]!.receivedAt - started
}

describe('a receiver that never answers', () => {
  it("holds only its own attempts: another tenant's deliveries arrive within the usual latency", async () => {
    const usual: number[] = []
    for (let i = 0; i < 5; i++) usual.push(await commitToFirstAttempt(healthy, ok, `usual${i}`))

    // 30 events for the hanging receiver: they go out up to the per-endpoint cap and hang.
    await tp.db.sql`
      insert into public.event_outbox (id, tenant_id, type, data, created_at)
      select 'evt_hang' || g, ${slow.tenantId}, 'api_key.created', jsonb_build_object('n', g), now()
      from generate_series(1, 30) g`
    void tp.instances[0]!.platform.runJob('webhooks/jobs/dispatch').then((r) => r.text())
    await waitFor(() => hanging.received.length >= PER_ENDPOINT, 3000, 'the hanging receiver to be reached')

    const during: number[] = []
    for (let i = 0; i < 10; i++) during.push(await commitToFirstAttempt(healthy, ok, `during${i}`))

    // Still hanging (the 10 s time-out has not run out) and never more than the cap at once.
    expect(hanging.received).toHaveLength(PER_ENDPOINT)
    const [open] = await tp.db.sql`
      select count(*)::int as n from public.webhook_delivery_attempts where tenant_id = ${slow.tenantId}`
    expect(open!.n).toBe(0)

    const worstUsual = Math.max(...usual)
    const worstDuring = Math.max(...during)
    console.log(
      `commit-to-first-attempt, healthy tenant: worst ${worstUsual.toFixed(1)} ms alone, ${worstDuring.toFixed(1)} ms while another receiver hangs`,
    )
    // The usual latency is tens of milliseconds; behind a hanging batch it was the 10 s time-out.
    expect(worstDuring).toBeLessThan(Math.max(1000, 5 * worstUsual))
  }, 30_000)
})
