// Webhooks under the production outbound policy: no loopback, no private ranges, https only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

let tp: TestPlatform
let t: TestTenant
let r: WebhookReceiver

beforeAll(async () => {
  tp = await startTestPlatform({ env: { OUTBOUND_ALLOW_LOOPBACK: 'false', OUTBOUND_ALLOW_HTTP: 'false' } })
  t = await tp.createTenant()
  r = await startReceiver()
})
afterAll(async () => {
  await r.close()
  await tp.close()
})

describe('webhook SSRF policy (production configuration)', () => {
  it.each([
    ['loopback literal', 'https://127.0.0.1/hook'],
    ['a name resolving to loopback', 'https://localhost/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['a private address', 'https://10.1.2.3/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['plain http', 'http://example.com/hook'],
  ])('refuses %s at creation', async (_name, url) => {
    const res = await tp.json('/api/webhooks', { token: t.token, body: { url, events: ['site.created'] } })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url' }] })
  })

  it('refuses again at delivery time: a host that now resolves to loopback gets nothing (DNS rebinding)', async () => {
    // As if the host had resolved to a public address at creation and now points at loopback:
    // the row is written directly, past the creation check.
    const url = r.url.replace('127.0.0.1', 'localhost').replace('http:', 'https:')
    const [sub] = await tp.db.sql`
      insert into public.webhook_subscriptions (tenant_id, url, events, secret_ciphertext)
      values (${t.tenantId}, ${url}, ${['api_key.created']}, ${await tp.instances[0]!.platform.deps.vault.encrypt(t.tenantId, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'webhook-secret')})
      returning id`
    const created = await tp.json('/api/api-keys', {
      token: t.token,
      body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 },
    })
    expect(created.status).toBe(201)
    await tp.instances[0]!.platform.runJob('webhooks/jobs/dispatch')
    const attempts = await tp.db
      .sql`select success, error from public.webhook_delivery_attempts where subscription_id = ${sub!.id}`
    expect(attempts).toHaveLength(1)
    expect(attempts[0]!.success).toBe(false)
    expect(attempts[0]!.error).toMatch(/blocked by the outbound policy: loopback/)
    expect(r.received).toHaveLength(0)
  })
})
