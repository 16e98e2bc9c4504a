// The event catalog as published: every event type in the webhooks document's OpenAPI 3.1
// `webhooks` section with a schema and a valid example, served at /docs, and real deliveries
// valid against the schema of their type, checked with a JSON Schema validator.
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateSubscriptionResponse } from '../functions/webhooks/routes/subscriptions/create.ts'
import { eventTypes } from '../shared/infra/events.ts'
import { emittedEventMismatches } from './support/emitted-events.ts'
import { setupTimeout, startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

interface WebhookOperation {
  summary: string
  requestBody: {
    content: { 'application/json': { schema: Record<string, unknown> & { example?: unknown } } }
  }
}
type Document = { openapi: string; webhooks?: Record<string, { post: WebhookOperation }> }

let tp: TestPlatform
let receiver: WebhookReceiver
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
addFormats(ajv)

beforeAll(async () => {
  tp = await startTestPlatform()
  receiver = await startReceiver()
}, setupTimeout())
afterAll(async () => {
  await receiver?.close()
  await tp?.close()
})

const documentAt = async (path: string) => (await tp.json(path)).body as Document
const payloadSchema = (doc: Document, type: string) =>
  doc.webhooks![type]!.post.requestBody.content['application/json'].schema

describe('the event catalog in the OpenAPI documents', () => {
  it('lists every event type (and the test event) in an OpenAPI 3.1 webhooks section, in the webhooks document and the reference at /docs', async () => {
    for (const path of ['/functions/v1/webhooks/openapi.json', '/docs/openapi.json']) {
      const doc = await documentAt(path)
      expect(doc.openapi).toBe('3.1.0')
      expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...eventTypes, 'webhook.test'].sort())
    }
    const page = await tp.request('/docs/config.js')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('/docs/openapi.json')
  })

  it('gives every type a schema whose example is valid, and refuses data the emitter does not write', async () => {
    const doc = await documentAt('/functions/v1/webhooks/openapi.json')
    for (const type of [...eventTypes, 'webhook.test']) {
      const schema = payloadSchema(doc, type)
      const example = schema.example as { type: string; data: Record<string, unknown> }
      expect(example, `${type} has an example`).toBeDefined()
      expect(example.type).toBe(type)
      const validate = ajv.compile(schema)
      expect(validate(example), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true)
      // Strict data: an unknown field, a missing one or another type's name is refused.
      expect(validate({ ...example, data: { ...example.data, unexpected: 1 } }), type).toBe(false)
      const [first] = Object.keys(example.data)
      const { [first!]: _dropped, ...missing } = example.data
      expect(validate({ ...example, data: missing }), `${type} without ${first}`).toBe(false)
      expect(validate({ ...example, type: 'site.created' === type ? 'site.deleted' : 'site.created' })).toBe(
        false,
      )
    }
  })
})

describe('deliveries against the published schemas', () => {
  it('subscribes to every type at once and delivers bodies valid against the schema of their type', async () => {
    const t = await tp.createTenant()
    const sub = await tp.json<CreateSubscriptionResponse>('/api/webhooks', {
      token: t.token,
      body: { url: receiver.url, events: [...eventTypes] },
    })
    expect(sub.status, JSON.stringify(sub.body)).toBe(201)
    expect(sub.body.events).toEqual([...eventTypes])

    // A few changes of different areas, and the test event.
    const key = await tp.json('/api/api-keys', {
      token: t.token,
      body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 },
    })
    await tp.json(`/api/api-keys/${key.body.id}/revoke`, { method: 'POST', token: t.token })
    await tp.json(`/api/webhooks/${sub.body.id}/test`, { method: 'POST', token: t.token })
    await waitFor(() => receiver.received.length >= 3, 10_000, 'three deliveries')

    const doc = await documentAt('/functions/v1/webhooks/openapi.json')
    const types = receiver.received.map((r) => r.body.type).sort()
    expect(types).toEqual(['api_key.created', 'api_key.revoked', 'webhook.test'])
    for (const got of receiver.received) {
      const validate = ajv.compile(payloadSchema(doc, got.body.type))
      expect(validate(got.body), `${got.body.type}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
  })

  it('notices an emitted event whose data strays from the catalog', async () => {
    const t = await tp.createTenant()
    expect(await emittedEventMismatches(tp.db.sql)).toEqual([])
    // As a careless emitter would: a field the catalog does not list, written through the outbox.
    await tp.db.sql`select private.record_event('evt_Stray0123456789abcdefghi', ${t.tenantId}, 'site.created',
      ${tp.db.sql.json({ site_id: crypto.randomUUID(), name: 'x', domain: null, created_at: new Date().toISOString(), owner: 'x' })},
      now())`
    expect(await emittedEventMismatches(tp.db.sql)).toEqual([
      {
        id: 'evt_Stray0123456789abcdefghi',
        type: 'site.created',
        problem: expect.stringContaining('owner'),
      },
    ])
    // Gone again, so the check at the platform's close passes for the rest of this file.
    await tp.db.sql`delete from public.event_outbox where id = 'evt_Stray0123456789abcdefghi'`
  })
})
