// Standard Webhooks beside the spec's signature: real deliveries verified by the ecosystem's own
// libraries (`standardwebhooks` and `svix`), as a receiver would, with the secret the API reveals.
import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { Webhook as SvixWebhook } from 'svix'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RotateSecretResponse } from '../functions/webhooks/routes/secret/rotate.ts'
import type { CreateSubscriptionResponse } from '../functions/webhooks/routes/subscriptions/create.ts'
import { generateKey } from '../shared/infra/keys.ts'
import { signStandardWebhook, standardWebhooksKey } from '../shared/services/webhooks/signature.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
import {
  type ReceivedWebhook,
  startReceiver,
  type WebhookReceiver,
  waitFor,
} from './support/webhook-receiver.ts'

// The libraries check webhook-timestamp against the real time, so the platform's clock starts there.
const clock = new TestClock(new Date())
let tp: TestPlatform
const receivers: WebhookReceiver[] = []

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
})
afterAll(async () => {
  for (const r of receivers) await r.close()
  await tp.close()
})

const keyBody = { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 }

async function subscribedTenant(): Promise<{
  t: TestTenant
  r: WebhookReceiver
  secret: string
  id: string
}> {
  const t = await tp.createTenant()
  const r = await startReceiver()
  receivers.push(r)
  const res = await tp.json<CreateSubscriptionResponse>('/api/webhooks', {
    token: t.token,
    body: { url: r.url, events: ['api_key.created'] },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { t, r, secret: res.body.secret, id: res.body.id }
}

function headersOf(got: ReceivedWebhook): Record<string, string> {
  return got.headers as Record<string, string>
}

/** What each library's documented `verify` answers: the parsed payload, or the thrown error's message. */
function verifiedBy(secret: string, got: ReceivedWebhook, raw = got.raw.toString('utf8')) {
  const outcome = (verify: () => unknown) => {
    try {
      return { ok: true as const, payload: verify() }
    } catch (err) {
      return { ok: false as const, error: String(err) }
    }
  }
  return {
    standardwebhooks: outcome(() => new StandardWebhook(secret).verify(raw, headersOf(got))),
    svix: outcome(() => new SvixWebhook(secret).verify(raw, headersOf(got))),
  }
}

describe('Standard Webhooks headers', () => {
  it('every delivery verifies with the standardwebhooks package and svix Webhook.verify', async () => {
    const { t, r, secret } = await subscribedTenant()
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 5000, 'delivery')
    const got = r.received[0]!
    expect(got.headers['webhook-id']).toBe(got.body.id)
    expect(got.headers['webhook-id']).toMatch(/^evt_/)
    expect(got.headers['webhook-timestamp']).toBe(got.headers['x-service-timestamp'])
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)

    const verified = verifiedBy(secret, got)
    expect(verified.standardwebhooks).toEqual({ ok: true, payload: got.body })
    expect(verified.svix).toEqual({ ok: true, payload: got.body })

    // The spec's header is unchanged: sha256=<hex HMAC over the body, keyed by the secret's text>.
    expect(got.headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(got.raw).digest('hex')}`,
    )

    // A wrong secret, a changed body or a changed id is refused by both libraries.
    const other = generateKey('whsec_')
    expect(verifiedBy(other, got).standardwebhooks.ok).toBe(false)
    expect(verifiedBy(other, got).svix.ok).toBe(false)
    const tampered = got.raw.toString('utf8').replace('"k"', '"x"')
    expect(verifiedBy(secret, got, tampered).standardwebhooks.ok).toBe(false)
    expect(verifiedBy(secret, got, tampered).svix.ok).toBe(false)
    const otherId = { ...got, headers: { ...got.headers, 'webhook-id': 'evt_other' } }
    expect(verifiedBy(secret, otherId).standardwebhooks.ok).toBe(false)
  })

  it('signs with both secrets in both timestamped schemes during a rotation overlap, then the new one only', async () => {
    const { t, r, secret: old, id } = await subscribedTenant()
    const rotated = await tp.json<RotateSecretResponse>(`/api/webhooks/${id}/rotate-secret`, {
      token: t.token,
      body: { overlap_seconds: 60 },
    })
    expect(rotated.status).toBe(200)
    const fresh = rotated.body.secret
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 1, 5000, 'delivery in the overlap')
    const during = r.received[0]!
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(String(during.headers['x-service-timestamp-signature']).split(',')).toHaveLength(2)
    for (const secret of [old, fresh]) {
      const verified = verifiedBy(secret, during)
      expect(verified.standardwebhooks.ok, `standardwebhooks with ${secret === old ? 'old' : 'new'}`).toBe(
        true,
      )
      expect(verified.svix.ok, `svix with ${secret === old ? 'old' : 'new'}`).toBe(true)
    }

    // Sixty seconds on, inside the libraries' five-minute tolerance of the real time.
    clock.advance(60_000 + 1)
    await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    await waitFor(() => r.received.length === 2, 5000, 'delivery after the overlap')
    const after = r.received[1]!
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(verifiedBy(fresh, after).standardwebhooks.ok).toBe(true)
    expect(verifiedBy(fresh, after).svix.ok).toBe(true)
    const withOld = verifiedBy(old, after)
    expect(withOld.standardwebhooks).toEqual({
      ok: false,
      error: expect.stringContaining('No matching signature'),
    })
    expect(withOld.svix.ok).toBe(false)
  })

  it('reads every secret the platform issues as the libraries do (existing subscriptions keep verifying)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constant(null).map(() => generateKey('whsec_')),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ maxLength: 200 }),
        fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
        async (secret, id, body, timestamp) => {
          expect(standardWebhooksKey(secret).length).toBe(27)
          const theirs = new StandardWebhook(secret).sign(id, new Date(timestamp * 1000), body)
          expect(await signStandardWebhook(secret, id, timestamp, body)).toBe(theirs)
        },
      ),
      { numRuns: 200 },
    )
  })
})
