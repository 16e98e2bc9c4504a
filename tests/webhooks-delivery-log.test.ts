import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ListDeliveryAttemptsResponse } from '../functions/webhooks/routes/deliveries/list.ts'
import { MASKED, RESPONSE_EXCERPT_BYTES } from '../shared/services/webhooks/dispatcher.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

/**
 * The delivery log shows what each attempt sent and got back: the body, the headers with every
 * signature masked, and the receiver's status and body cut at 4096 bytes.
 */

let tp: TestPlatform
let t: TestTenant
let r: WebhookReceiver
// 10 KB with a two-byte character straddling the 4096-byte cut.
const answer = `${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}é${'b'.repeat(10 * 1024)}`

beforeAll(async () => {
  tp = await startTestPlatform()
  t = await tp.createTenant()
  r = await startReceiver(() => ({ status: 202, body: answer }))
})
afterAll(async () => {
  await r.close()
  await tp.close()
})

describe('the delivery log', () => {
  it('shows the request body, the headers with signatures masked, and a bounded response', async () => {
    const sub = await tp.json('/api/webhooks', {
      token: t.token,
      body: { url: r.url, events: ['api_key.created'] },
    })
    expect(sub.status).toBe(201)
    await tp.json('/api/api-keys', {
      token: t.token,
      body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 },
    })
    const log = async () =>
      (
        await tp.json<ListDeliveryAttemptsResponse>(`/api/webhooks/${sub.body.id}/deliveries`, {
          token: t.token,
        })
      ).body
    await waitFor(async () => (await log()).data.length === 1, 10_000, 'the attempt recorded')
    const [attempt] = (await log()).data
    const sent = r.received[0]!

    expect(attempt!.request_body).toBe(sent.raw.toString('utf8'))
    const headers = attempt!.request_headers!
    for (const name of ['x-service-signature', 'x-service-timestamp-signature', 'webhook-signature'])
      expect(headers[name], name).toBe(MASKED)
    expect(headers['x-service-event-id']).toBe(sent.headers['x-service-event-id'])
    expect(headers['content-type']).toBe('application/json')
    // No signature the receiver got appears anywhere in the log.
    const text = JSON.stringify(await log())
    for (const name of ['x-service-signature', 'webhook-signature'])
      expect(text).not.toContain(String(sent.headers[name]).split(/[ ,]/)[0]!.slice(-20))

    expect(attempt!.status_code).toBe(202)
    expect(attempt!.response_truncated).toBe(true)
    // Cut before the character that would cross 4096 bytes, never inside it.
    expect(attempt!.response_excerpt).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 1))
  })
})
