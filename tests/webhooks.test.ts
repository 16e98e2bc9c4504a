import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ListDeliveryAttemptsResponse } from '../functions/webhooks/routes/deliveries/list.ts'
import type { RecoverDeliveriesResponse } from '../functions/webhooks/routes/deliveries/recover.ts'
import type { RedeliverEventResponse } from '../functions/webhooks/routes/deliveries/redeliver.ts'
import type { SendTestEventResponse } from '../functions/webhooks/routes/deliveries/test.ts'
import type { DispatchJobResponse } from '../functions/webhooks/routes/jobs/dispatch.ts'
import type { RevealSecretResponse } from '../functions/webhooks/routes/secret/reveal.ts'
import type { RotateSecretResponse } from '../functions/webhooks/routes/secret/rotate.ts'
import type { CreateSubscriptionResponse } from '../functions/webhooks/routes/subscriptions/create.ts'
import type { GetSubscriptionResponse } from '../functions/webhooks/routes/subscriptions/get.ts'
import type { ListSubscriptionsResponse } from '../functions/webhooks/routes/subscriptions/list.ts'
import type { ResumeSubscriptionResponse } from '../functions/webhooks/routes/subscriptions/resume.ts'
import { functionEnvironment } from '../local-platform/local-env.ts'
import { createDeps } from '../shared/infra/create-deps.ts'
import { recordEvent } from '../shared/infra/events.ts'
import { dispatchDue } from '../shared/services/webhooks/dispatcher.ts'
import { verifyWebhookRequest, verifyWebhookSignature } from '../shared/services/webhooks/signature.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

const clock = new TestClock()
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const receivers: WebhookReceiver[] = []

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args)
  receivers.push(r)
  return r
}

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(async () => {
  for (const r of receivers) await r.close()
  await tp.close()
})

const keyBody = { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 }

async function subscribe(t: TestTenant, url: string, events = ['api_key.created', 'api_key.revoked']) {
  const res = await tp.json<CreateSubscriptionResponse>('/api/webhooks', {
    token: t.token,
    body: { url, events },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

const runDispatch = async (instance = 0) => {
  const res = await tp.instances[instance]!.platform.runJob('webhooks/jobs/dispatch')
  expect(res.status).toBe(200)
  return (await res.json()) as DispatchJobResponse
}

/** GitHub's documented X-Hub-Signature-256 check, written independently of our code. */
function githubStyleValid(raw: Buffer, header: string | undefined, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`, 'utf8')
  const given = Buffer.from(header ?? '', 'utf8')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

describe('subscriptions', () => {
  it('creates exactly as the spec: url, events in; id, url, events, secret (whsec_) out', async () => {
    const r = await receiver()
    const res = await tp.json('/api/webhooks', {
      token: a.token,
      body: { url: r.url, events: ['content.published'] },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ url: r.url, events: ['content.published'], status: 'active' })
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.body.secret).toMatch(/^whsec_[0-9A-Za-z]{36}$/)
    // Stored encrypted, never in plaintext.
    const rows = await tp.db.sql`select * from public.webhook_subscriptions where id = ${res.body.id}`
    expect(JSON.stringify(rows)).not.toContain(res.body.secret)
    // list/get never show it; reveal does.
    const got = await tp.json(`/api/webhooks/${res.body.id}`, { token: a.token })
    expect(got.body.secret).toBeUndefined()
    const list = await tp.json<ListSubscriptionsResponse>('/api/webhooks', { token: a.token })
    expect(list.body.data.map((s) => s.id)).toContain(res.body.id)
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret)
    const revealed = await tp.json<RevealSecretResponse>(`/api/webhooks/${res.body.id}/secret`, {
      token: a.token,
    })
    expect(revealed.body.secret).toBe(res.body.secret)
  })

  it.each([
    ['an unknown event type', { url: 'https://example.com/h', events: ['invoice.paid'] }, 'events.0'],
    ['no events', { url: 'https://example.com/h', events: [] }, 'events'],
    ['repeated events', { url: 'https://example.com/h', events: ['site.created', 'site.created'] }, 'events'],
    ['a non-URL', { url: 'not a url', events: ['site.created'] }, 'url'],
    ['an ftp URL', { url: 'ftp://example.com/h', events: ['site.created'] }, 'url'],
    ['an over-long URL', { url: `https://example.com/${'a'.repeat(2100)}`, events: ['site.created'] }, 'url'],
    [
      'an unknown field',
      { url: 'https://example.com/h', events: ['site.created'], secret: 'mine' },
      '(body)',
    ],
    ['a missing url', { events: ['site.created'] }, 'url'],
  ])('refuses %s with 400 VALIDATION_ERROR naming the field, storing nothing', async (_n, body, field) => {
    const before = await tp.db.sql`select count(*)::int as n from public.webhook_subscriptions`
    const res = await tp.json('/api/webhooks', { token: a.token, body })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    const after = await tp.db.sql`select count(*)::int as n from public.webhook_subscriptions`
    expect(after[0]!.n).toBe(before[0]!.n)
  })

  it('lists the valid event types in the error for an unknown one', async () => {
    const res = await tp.json('/api/webhooks', {
      token: a.token,
      body: { url: 'https://example.com/h', events: ['nope'] },
    })
    expect(res.body.details[0].message).toContain('content.published')
    expect(res.body.details[0].message).toContain('api_key.revoked')
  })

  it('refuses private, link-local, metadata and CGNAT addresses at creation and update', async () => {
    for (const url of [
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1/h',
      'http://100.64.0.1/h',
      'http://[::ffff:10.0.0.1]/h',
      'http://[fd00::1]/h',
    ]) {
      const res = await tp.json('/api/webhooks', { token: a.token, body: { url, events: ['site.created'] } })
      expect(res.status, url).toBe(400)
      expect(res.body.details[0].field).toBe('url')
    }
    const r = await receiver()
    const sub = await subscribe(a, r.url)
    const res = await tp.json(`/api/webhooks/${sub.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { url: 'http://169.254.169.254/' },
    })
    expect(res.status).toBe(400)
    expect((await tp.json(`/api/webhooks/${sub.id}`, { token: a.token })).body.url).toBe(r.url)
  })

  it('updates url, events and description; deletes', async () => {
    const r = await receiver()
    const sub = await subscribe(a, r.url)
    const upd = await tp.json(`/api/webhooks/${sub.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { events: ['site.created'], description: 'CMS sync' },
    })
    expect(upd.status).toBe(200)
    expect(upd.body).toMatchObject({ url: r.url, events: ['site.created'], description: 'CMS sync' })
    expect(
      (await tp.json(`/api/webhooks/${sub.id}`, { method: 'PATCH', token: a.token, body: {} })).status,
    ).toBe(400)
    expect(
      (await tp.json(`/api/webhooks/${sub.id}`, { method: 'PATCH', token: a.token, body: { events: ['x'] } }))
        .status,
    ).toBe(400)
    expect((await tp.request(`/api/webhooks/${sub.id}`, { method: 'DELETE', token: a.token })).status).toBe(
      204,
    )
    expect((await tp.json(`/api/webhooks/${sub.id}`, { token: a.token })).status).toBe(404)
  })

  it('lets members read but not manage subscriptions (403), backed by RLS', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    const member = await addMember(tp, t.tenantId, 'member')
    expect((await tp.json(`/api/webhooks/${sub.id}`, { token: member.token })).status).toBe(200)
    for (const [method, path, body] of [
      ['POST', '/api/webhooks', { url: r.url, events: ['site.created'] }],
      ['PATCH', `/api/webhooks/${sub.id}`, { description: 'x' }],
      ['DELETE', `/api/webhooks/${sub.id}`, undefined],
      ['GET', `/api/webhooks/${sub.id}/secret`, undefined],
      ['POST', `/api/webhooks/${sub.id}/rotate-secret`, {}],
      ['POST', `/api/webhooks/${sub.id}/pause`, undefined],
    ] as const) {
      const res = await tp.json(path, { method, token: member.token, body })
      expect(res.status, `${method} ${path}`).toBe(403)
    }
  })

  it("keeps tenant B away from tenant A's subscriptions and deliveries (404, unchanged)", async () => {
    const r = await receiver()
    const sub = await subscribe(a, r.url)
    await tp.json('/api/api-keys', { token: a.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 5000, 'delivery to A')
    const eventId = r.received[0]!.body.id
    for (const [method, path, body] of [
      ['GET', `/api/webhooks/${sub.id}`, undefined],
      ['PATCH', `/api/webhooks/${sub.id}`, { url: `${r.url}?stolen` }],
      ['DELETE', `/api/webhooks/${sub.id}`, undefined],
      ['GET', `/api/webhooks/${sub.id}/secret`, undefined],
      ['POST', `/api/webhooks/${sub.id}/rotate-secret`, {}],
      ['POST', `/api/webhooks/${sub.id}/pause`, undefined],
      ['POST', `/api/webhooks/${sub.id}/resume`, undefined],
      ['GET', `/api/webhooks/${sub.id}/deliveries`, undefined],
      ['POST', `/api/webhooks/${sub.id}/redeliver`, { event_id: eventId }],
      ['POST', `/api/webhooks/${sub.id}/recover`, { since: '2020-01-01T00:00:00Z' }],
      ['POST', `/api/webhooks/${sub.id}/test`, undefined],
    ] as const) {
      const res = await tp.json(path, { method, token: b.token, body })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.body.code).toBe('NOT_FOUND')
    }
    const list = await tp.json('/api/webhooks', { token: b.token })
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(sub.id)
    const [row] = await tp.db
      .sql`select url, status, secret_ciphertext from public.webhook_subscriptions where id = ${sub.id}`
    expect(row).toMatchObject({ url: r.url, status: 'active' })
    expect((await tp.json(`/api/webhooks/${sub.id}/secret`, { token: a.token })).body.secret).toBe(sub.secret)
    expect(r.received).toHaveLength(1)
  })

  it('requires authentication', async () => {
    expect((await tp.json('/api/webhooks')).status).toBe(401)
    expect((await tp.json('/api/webhooks', { token: 'garbage' })).status).toBe(401)
    // The job takes only the service-role key.
    expect(
      (await tp.json('/functions/v1/webhooks/jobs/dispatch', { method: 'POST', token: a.token })).status,
    ).toBe(401)
  })
})

describe('payload and signature', () => {
  it('POSTs {id, type, created_at, data} signed over the raw bytes, verifiable by independent implementations', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    const key = await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 5000, 'delivery')
    const got = r.received[0]!
    expect(Object.keys(got.body)).toEqual(['id', 'type', 'created_at', 'data'])
    expect(got.body.id).toMatch(/^evt_/)
    expect(got.body.type).toBe('api_key.created')
    expect(new Date(got.body.created_at).toISOString()).toBe(got.body.created_at)
    expect(got.body.data).toMatchObject({ api_key_id: key.body.id, name: 'k' })
    expect(got.raw.toString()).not.toContain(key.body.key)

    const sig = got.headers['x-service-signature'] as string
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/)
    // node:crypto HMAC over the exact bytes received.
    expect(sig).toBe(`sha256=${createHmac('sha256', sub.secret).update(got.raw).digest('hex')}`)
    expect(githubStyleValid(got.raw, sig, sub.secret)).toBe(true)
    expect(githubStyleValid(got.raw, sig, `${sub.secret}x`)).toBe(false)
    const tampered = Buffer.from(got.raw.toString().replace('api_key.created', 'api_key.revoked'))
    expect(githubStyleValid(tampered, sig, sub.secret)).toBe(false)
    // Our helper agrees.
    expect(await verifyWebhookSignature(got.raw, sig, sub.secret)).toBe(true)
    expect(await verifyWebhookSignature(new Uint8Array(tampered), sig, sub.secret)).toBe(false)
    // Dedupe and replay headers.
    expect(got.headers['x-service-event-id']).toBe(got.body.id)
    expect(got.headers['x-service-event-type']).toBe('api_key.created')
    expect(got.headers['x-service-delivery-attempt']).toBe('1')
    const ts = Number(got.headers['x-service-timestamp'])
    expect(ts).toBe(Math.floor(clock.now().getTime() / 1000))
    const tsSig = createHmac('sha256', sub.secret).update(`${ts}.`).update(got.raw).digest('hex')
    expect(got.headers['x-service-timestamp-signature']).toBe(`sha256=${tsSig}`)
    const headers = got.headers as Record<string, string>
    expect(
      await verifyWebhookRequest({ rawBody: got.raw, headers, secrets: [sub.secret], now: clock.now() }),
    ).toEqual({ ok: true })
    const later = new Date(clock.now().getTime() + 600_000)
    expect(
      (await verifyWebhookRequest({ rawBody: got.raw, headers, secrets: [sub.secret], now: later })).ok,
    ).toBe(false)
    const forged = { ...headers, 'x-service-timestamp': String(ts + 60) }
    expect(
      (
        await verifyWebhookRequest({
          rawBody: got.raw,
          headers: forged,
          secrets: [sub.secret],
          now: clock.now(),
        })
      ).ok,
    ).toBe(false)
  })

  it('passes content.published data through exactly (article_id, title, site_id, published_at)', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    await subscribe(t, r.url, ['content.published'])
    const data = {
      article_id: crypto.randomUUID(),
      title: 'Héllo "world" ✓',
      site_id: crypto.randomUUID(),
      published_at: '2026-11-21T12:00:00.000Z',
    }
    await recordEvent(tp.db.sql, { tenantId: t.tenantId, type: 'content.published', data, at: clock.now() })
    await runDispatch()
    expect(r.received).toHaveLength(1)
    expect(r.received[0]!.body.data).toEqual(data)
    expect(Object.keys(r.received[0]!.body.data).sort()).toEqual([
      'article_id',
      'published_at',
      'site_id',
      'title',
    ])
  })

  it('delivers only subscribed types, only to subscriptions of the event tenant', async () => {
    const t = await tp.createTenant()
    const other = await tp.createTenant()
    const r1 = await receiver()
    const r2 = await receiver()
    await subscribe(t, r1.url, ['api_key.revoked'])
    await subscribe(other, r2.url, ['api_key.created'])
    const key = await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await tp.json(`/api/api-keys/${key.body.id}/revoke`, { method: 'POST', token: t.token })
    await waitFor(() => r1.received.length === 1, 5000, 'revoked delivery')
    await runDispatch()
    expect(r1.received.map((x) => x.body.type)).toEqual(['api_key.revoked'])
    expect(r2.received).toHaveLength(0)
  })

  it('keeps signing x-service-signature with the previous secret during a rotation overlap', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    const rotated = await tp.json<RotateSecretResponse>(`/api/webhooks/${sub.id}/rotate-secret`, {
      token: t.token,
      body: { overlap_seconds: 3600 },
    })
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.secret
    expect(fresh).toMatch(/^whsec_/)
    expect(fresh).not.toBe(sub.secret)
    expect(rotated.body.previous_secret_expires_at).toBe(
      new Date(clock.now().getTime() + 3600_000).toISOString(),
    )
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 5000, 'delivery')
    const during = r.received[0]!
    // A receiver still on the old secret that checks only x-service-signature keeps working...
    expect(githubStyleValid(during.raw, during.headers['x-service-signature'] as string, sub.secret)).toBe(
      true,
    )
    // ...and one already on the new secret verifies the timestamped header.
    const headers = during.headers as Record<string, string>
    expect(
      (await verifyWebhookRequest({ rawBody: during.raw, headers, secrets: [fresh], now: clock.now() })).ok,
    ).toBe(true)
    expect(
      (await verifyWebhookRequest({ rawBody: during.raw, headers, secrets: [sub.secret], now: clock.now() }))
        .ok,
    ).toBe(true)
    expect((await tp.json(`/api/webhooks/${sub.id}/secret`, { token: t.token })).body.secret).toBe(fresh)

    clock.advance(3600_000 + 1)
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 2, 5000, 'second delivery')
    const after = r.received[1]!
    expect(githubStyleValid(after.raw, after.headers['x-service-signature'] as string, fresh)).toBe(true)
    expect(githubStyleValid(after.raw, after.headers['x-service-signature'] as string, sub.secret)).toBe(
      false,
    )
    expect(after.headers['x-service-timestamp-signature']).not.toContain(',')
  })
})

describe('delivery engine', () => {
  it('follows the exact schedule (0, 1 m, 5 m, 30 m, 2 h), pauses after the 5th failure with one notification, and resume delivers held events', async () => {
    const t = await tp.createTenant()
    let status = 500
    const r = await receiver(() => ({ status, body: 'down for maintenance' }))
    const sub = await subscribe(t, r.url)
    const start = clock.now().getTime()
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    // Attempt 1 right after the commit, without any poll or cron tick: test platforms run no
    // scheduler and the injected clock has not moved, so only the kick after the commit can send it.
    await waitFor(() => r.received.length === 1, 10_000, 'attempt 1, from the kick alone')
    expect(clock.now().getTime()).toBe(start)
    // The in-process dispatcher records attempt 1 after the receiver has answered; wait for that
    // before moving the clock, or the next pass could find the delivery still leased.
    await waitFor(
      async () =>
        (await tp.json(`/api/webhooks/${sub.id}/deliveries`, { token: t.token })).body.data.length === 1,
      5000,
      'attempt 1 recorded',
    )

    const offsets = [60_000, 6 * 60_000, 36 * 60_000, 156 * 60_000] // cumulative: +1m, +5m, +30m, +2h
    for (const [i, offset] of offsets.entries()) {
      // One millisecond early: nothing is due.
      clock.set(new Date(start + offset - 1))
      await runDispatch()
      expect(r.received, `attempt ${i + 2} not before its time`).toHaveLength(i + 1)
      clock.set(new Date(start + offset))
      await runDispatch()
      expect(r.received, `attempt ${i + 2} at +${offset / 60_000} min`).toHaveLength(i + 2)
    }
    expect(r.received.map((x) => x.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5'])
    expect(new Set(r.received.map((x) => x.body.id)).size).toBe(1)
    expect(new Set(r.received.map((x) => x.raw.toString())).size).toBe(1)

    const log = await tp.json<ListDeliveryAttemptsResponse>(`/api/webhooks/${sub.id}/deliveries`, {
      token: t.token,
    })
    expect(log.status).toBe(200)
    const attempts = [...log.body.data].reverse()
    expect(attempts.map((x) => x.attempt)).toEqual([1, 2, 3, 4, 5])
    expect(attempts.map((x) => new Date(x.attempted_at).getTime() - start)).toEqual([0, ...offsets])
    expect(
      attempts.map(
        (x: { next_attempt_at: string | null }) =>
          x.next_attempt_at && new Date(x.next_attempt_at).getTime() - start,
      ),
    ).toEqual([...offsets, null])
    expect(attempts[0]).toMatchObject({
      success: false,
      status_code: 500,
      response_excerpt: 'down for maintenance',
      error: 'HTTP 500',
    })
    expect(attempts[0]!.duration_ms).toBeGreaterThanOrEqual(0)
    // Each attempt says whether a later one was made and how the delivery stands now.
    expect(attempts.map((x) => x.latest)).toEqual([false, false, false, false, true])
    expect(new Set(attempts.map((x) => x.delivery_status))).toEqual(new Set(['failed']))

    const got = await tp.json<GetSubscriptionResponse>(`/api/webhooks/${sub.id}`, { token: t.token })
    expect(got.body).toMatchObject({ status: 'paused', paused_reason: 'failures' })
    const mail = await tp.db
      .sql`select recipient, kind from public.notifications where tenant_id = ${t.tenantId} and kind = 'webhook.paused'`
    expect(mail).toEqual([{ recipient: t.email, kind: 'webhook.paused' }])

    // While paused: nothing goes out, events are held.
    await tp.json('/api/api-keys', { token: t.token, body: { ...keyBody, name: 'while paused' } })
    clock.advance(24 * 3600_000)
    await runDispatch()
    await runDispatch(1)
    expect(r.received).toHaveLength(5)
    const mail2 = await tp.db
      .sql`select 1 from public.notifications where tenant_id = ${t.tenantId} and kind = 'webhook.paused'`
    expect(mail2).toHaveLength(1)

    status = 204
    const resumed = await tp.json<ResumeSubscriptionResponse>(`/api/webhooks/${sub.id}/resume`, {
      method: 'POST',
      token: t.token,
    })
    expect(resumed.body.status).toBe('active')
    await waitFor(() => r.received.length === 6, 2000, 'held event after resume')
    expect(r.received[5]!.body.data.name).toBe('while paused')
    expect(r.received[5]!.headers['x-service-delivery-attempt']).toBe('1')
    // The exhausted event stays failed until recovered.
    const recovered = await tp.json<RecoverDeliveriesResponse>(`/api/webhooks/${sub.id}/recover`, {
      token: t.token,
      body: { since: new Date(start - 1000).toISOString() },
    })
    expect(recovered.body).toEqual({ requeued: 1 })
    await waitFor(() => r.received.length === 7, 2000, 'recovered event')
    expect(r.received[6]!.body.id).toBe(r.received[0]!.body.id)
    expect(r.received[6]!.headers['x-service-delivery-attempt']).toBe('6')
    // Delivered on its sixth attempt: the failed ones no longer promise a retry.
    const eventLog = async () =>
      (
        await tp.json<ListDeliveryAttemptsResponse>(
          `/api/webhooks/${sub.id}/deliveries?event_id=${r.received[0]!.body.id}`,
          { token: t.token },
        )
      ).body.data
    await waitFor(async () => (await eventLog()).length === 6, 5000, 'attempt 6 recorded')
    const after = [...(await eventLog())].reverse()
    expect(after.map((x) => [x.attempt, x.success, x.latest, x.delivery_status])).toEqual([
      [1, false, false, 'succeeded'],
      [2, false, false, 'succeeded'],
      [3, false, false, 'succeeded'],
      [4, false, false, 'succeeded'],
      [5, false, false, 'succeeded'],
      [6, true, true, 'succeeded'],
    ])
  })

  it('counts 3xx, time-outs and connection errors as failures', async () => {
    const t = await tp.createTenant()
    const redirecting = await receiver(() => ({ status: 302, body: '' }))
    await subscribe(t, redirecting.url)
    const closed = await receiver()
    const deadUrl = closed.url
    await closed.close()
    const deadSub = await subscribe(t, deadUrl)
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => redirecting.received.length === 1, 3000, 'redirect response')
    await runDispatch()
    const attempts = () =>
      tp.db.sql<{ success: boolean; status_code: number | null; error: string; subscription_id: string }[]>`
        select success, status_code, error, subscription_id from public.webhook_delivery_attempts where tenant_id = ${t.tenantId}`
    // Attempts are independent: each is recorded when it ends, not when the dispatch pass returns.
    await waitFor(async () => (await attempts()).length === 2, 5000, 'both attempts recorded')
    const rows = await attempts()
    expect(rows).toHaveLength(2)
    const redirect = rows.find((x) => x.subscription_id !== deadSub.id)!
    expect(redirect).toMatchObject({ success: false, status_code: 302, error: 'HTTP 302' })
    const dead = rows.find((x) => x.subscription_id === deadSub.id)!
    expect(dead.success).toBe(false)
    expect(dead.error).toMatch(/connection failed/)
  })

  it('sends each of 1,000 due deliveries exactly once with several dispatchers racing', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    // Written straight to the outbox in one statement: no commit signal, so nothing starts early.
    await tp.db.sql`
      insert into public.event_outbox (id, tenant_id, type, data, created_at)
      select 'evt_race' || g, ${t.tenantId}, 'api_key.created', jsonb_build_object('n', g), ${clock.now()}
      from generate_series(1, 1000) g`
    const extra = await createDeps(
      {
        ...functionEnvironment(tp.localEnv, tp.db.url),
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        OUTBOUND_ALLOW_HTTP: 'true',
        LOG_LEVEL: 'silent',
      },
      { clock },
    )
    const results = await Promise.all([
      runDispatch(0),
      runDispatch(1),
      dispatchDue(extra),
      dispatchDue(tp.instances[0]!.platform.deps),
    ])
    await extra.sql.end()
    // Every delivery was claimed and sent by exactly one of them (a slow answer may have been
    // recorded as a time-out, which schedules attempt 2; it still went out once).
    expect(results.reduce((n, x) => n + x.claimed, 0)).toBeGreaterThanOrEqual(1000)
    const ids = r.received.filter((x) => x.body.id.startsWith('evt_race')).map((x) => x.body.id)
    expect(ids).toHaveLength(1000)
    expect(new Set(ids).size).toBe(1000)
    const [log] = await tp.db.sql`
      select count(*)::int as n, count(distinct delivery_id)::int as d, max(attempt) as max from public.webhook_delivery_attempts
      where subscription_id = ${sub.id}`
    expect(log).toEqual({ n: 1000, d: 1000, max: 1 })
  }, 60_000)

  it('loses nothing when a dispatcher dies mid-delivery: the attempt is retried after its lease', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    await tp.db.sql`
      insert into public.event_outbox (id, tenant_id, type, data, created_at)
      select 'evt_crash' || g, ${t.tenantId}, 'api_key.revoked', jsonb_build_object('n', g), ${clock.now()}
      from generate_series(1, 20) g`
    // The doomed dispatcher's POSTs reach the receiver, then it "dies" before hearing back.
    const doomed = await createDeps(
      {
        ...functionEnvironment(tp.localEnv, tp.db.url),
        OUTBOUND_ALLOW_LOOPBACK: 'true',
        OUTBOUND_ALLOW_HTTP: 'true',
        LOG_LEVEL: 'silent',
      },
      {
        clock,
        fetch: (url, init) => {
          void fetch(url, { method: init?.method, headers: init?.headers, body: init?.body }).catch(() => {})
          return new Promise<Response>(() => {})
        },
      },
    )
    void dispatchDue(doomed).catch(() => {})
    await waitFor(
      () => r.received.filter((x) => x.body.id.startsWith('evt_crash')).length === 20,
      5000,
      'doomed sends',
    )
    await doomed.sql.end({ timeout: 0 })
    const pending = await tp.db
      .sql`select status, attempts, lease_id from public.webhook_deliveries where subscription_id = ${sub.id}`
    expect(pending).toHaveLength(20)
    expect(pending.every((d) => d.status === 'pending' && d.attempts === 0 && d.lease_id)).toBe(true)

    // While the lease holds, nobody else sends those attempts.
    await runDispatch(0)
    await runDispatch(1)
    expect(r.received).toHaveLength(20)
    // After the lease: each attempt 1 goes out again (same event id) and is recorded once.
    clock.advance(60_001)
    await runDispatch(1)
    expect(r.received).toHaveLength(40)
    const redone = r.received.slice(20)
    expect(redone.every((x) => x.headers['x-service-delivery-attempt'] === '1')).toBe(true)
    expect(new Set(redone.map((x) => x.body.id))).toEqual(
      new Set(r.received.slice(0, 20).map((x) => x.body.id)),
    )
    const [log] = await tp.db.sql`
      select count(*)::int as n, bool_and(success) as ok from public.webhook_delivery_attempts where subscription_id = ${sub.id}`
    expect(log).toEqual({ n: 20, ok: true })
    const states = await tp.db
      .sql`select distinct status from public.webhook_deliveries where subscription_id = ${sub.id}`
    expect(states).toEqual([{ status: 'succeeded' }])
  })
})

describe('delivery log and replay', () => {
  it('redelivers one event with the same id, sends a test event, paginates the log', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 3000, 'first delivery')
    const eventId = r.received[0]!.body.id
    // The receiver has the body before the dispatcher records the attempt and releases the
    // delivery; until then a redelivery is refused as in flight (409).
    await waitFor(
      async () =>
        (
          await tp.db.sql<{ status: string }[]>`
            select status from public.webhook_deliveries where subscription_id = ${sub.id} and event_id = ${eventId}`
        )[0]?.status === 'succeeded',
      3000,
      'first attempt recorded',
    )
    clock.advance(1000)
    const again = await tp.json<RedeliverEventResponse>(`/api/webhooks/${sub.id}/redeliver`, {
      token: t.token,
      body: { event_id: eventId },
    })
    expect(again.status).toBe(202)
    expect(again.body).toMatchObject({ event_id: eventId, status: 'pending' })
    await waitFor(() => r.received.length === 2, 3000, 'redelivery')
    expect(r.received[1]!.body.id).toBe(eventId)
    expect(r.received[1]!.raw.equals(r.received[0]!.raw)).toBe(true)
    expect(r.received[1]!.headers['x-service-delivery-attempt']).toBe('2')

    const missing = await tp.json(`/api/webhooks/${sub.id}/redeliver`, {
      token: t.token,
      body: { event_id: 'evt_doesnotexist' },
    })
    expect(missing.status).toBe(404)
    expect(
      (await tp.json(`/api/webhooks/${sub.id}/redeliver`, { token: t.token, body: { event_id: 'nope' } }))
        .status,
    ).toBe(400)

    clock.advance(1000)
    const test = await tp.json<SendTestEventResponse>(`/api/webhooks/${sub.id}/test`, {
      method: 'POST',
      token: t.token,
    })
    expect(test.status).toBe(202)
    await waitFor(() => r.received.length === 3, 3000, 'test event')
    expect(r.received[2]!.body).toMatchObject({ type: 'webhook.test', data: { subscription_id: sub.id } })
    expect(
      githubStyleValid(
        r.received[2]!.raw,
        r.received[2]!.headers['x-service-signature'] as string,
        sub.secret,
      ),
    ).toBe(true)
    // The attempt is recorded right after the receiver answers.
    const logged = async () =>
      (await tp.db.sql`select 1 from public.webhook_delivery_attempts where subscription_id = ${sub.id}`)
        .length
    await waitFor(async () => (await logged()) === 3, 3000, 'three attempts logged')

    const page1 = await tp.json(`/api/webhooks/${sub.id}/deliveries?limit=2`, { token: t.token })
    expect(page1.body.data).toHaveLength(2)
    const page2 = await tp.json(
      `/api/webhooks/${sub.id}/deliveries?limit=2&cursor=${page1.body.next_cursor}`,
      { token: t.token },
    )
    expect(page2.body.data).toHaveLength(1)
    expect(page2.body.next_cursor).toBeNull()
    const all = [...page1.body.data, ...page2.body.data]
    expect(new Set(all.map((x: { id: string }) => x.id)).size).toBe(3)
    expect(
      all.every((x: { success: boolean; status_code: number }) => x.success && x.status_code === 200),
    ).toBe(true)
    const byEvent = await tp.json(`/api/webhooks/${sub.id}/deliveries?event_id=${eventId}`, {
      token: t.token,
    })
    expect(byEvent.body.data.map((x: { attempt: number }) => x.attempt)).toEqual([2, 1])
    expect((await tp.json(`/api/webhooks/${sub.id}/deliveries?limit=500`, { token: t.token })).status).toBe(
      400,
    )
  })

  it('holds events of a manually paused subscription and delivers them on resume', async () => {
    const t = await tp.createTenant()
    const r = await receiver()
    const sub = await subscribe(t, r.url)
    expect(
      (await tp.json(`/api/webhooks/${sub.id}/pause`, { method: 'POST', token: t.token })).body,
    ).toMatchObject({
      status: 'paused',
      paused_reason: 'manual',
    })
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await runDispatch()
    expect(r.received).toHaveLength(0)
    await tp.json(`/api/webhooks/${sub.id}/resume`, { method: 'POST', token: t.token })
    await waitFor(() => r.received.length === 1, 3000, 'held event')
  })
})
