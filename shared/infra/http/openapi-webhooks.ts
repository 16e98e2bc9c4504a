import { type OpenAPIHono, z } from '@hono/zod-openapi'

type OpenAPIRegistry = OpenAPIHono['openAPIRegistry']

import { type CatalogEvent, eventCatalog, testEvent } from '../event-catalog.ts'
import { isoTimestamp } from '../schemas.ts'

/**
 * The event catalog as an OpenAPI 3.1 `webhooks` section: one entry per event type, the POST a
 * subscriber receives, with the payload's schema (its `data` from event-catalog.ts), an example,
 * and the signature headers. Kept apart from the documents' paths so any document can include it.
 */

const deliveryHeaders = z.object({
  'x-service-signature': z
    .string()
    .openapi({ description: 'sha256= + lowercase hex HMAC-SHA256(secret, raw body)', example: 'sha256=…' }),
  'x-service-timestamp': z.string().openapi({ description: 'Unix seconds when the attempt was sent' }),
  'x-service-timestamp-signature': z.string().openapi({
    description: 'sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret',
  }),
  'x-service-event-id': z.string().openapi({ description: "The payload's id" }),
  'x-service-event-type': z.string().openapi({ description: "The payload's type" }),
  'x-service-delivery-id': z.string(),
  'x-service-delivery-attempt': z.string(),
  'webhook-id': z.string().openapi({ description: 'Standard Webhooks: the event id (evt_…)' }),
  'webhook-timestamp': z.string().openapi({ description: 'Standard Webhooks: Unix seconds' }),
  'webhook-signature': z.string().openapi({
    description: 'Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation',
  }),
})

const EXAMPLE_ID = 'evt_3kT9fQ2mXb7LrN4pWc8ZyA1d'
const EXAMPLE_AT = '2026-11-21T12:00:00.000Z'

function payloadSchema(type: string, event: CatalogEvent) {
  return z
    .strictObject({
      id: z
        .string()
        .regex(/^evt_[A-Za-z0-9]+$/)
        .openapi({ description: 'The same on every attempt: deduplicate on it' }),
      type: z.literal(type),
      created_at: isoTimestamp(),
      data: event.data,
    })
    .openapi({ example: { id: EXAMPLE_ID, type, created_at: EXAMPLE_AT, data: event.example } })
}

function register(registry: OpenAPIRegistry, type: string, event: CatalogEvent, subscribable: boolean) {
  registry.registerWebhook({
    method: 'post',
    path: type,
    // The event type names the entry in the sidebar; what it means opens the description.
    summary: type,
    description: `${event.summary}\n\n${
      subscribable
        ? `Sent to each subscription whose \`events\` include \`${type}\`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).`
        : 'Sent by `POST /api/webhooks/{id}/test` to that subscription only: one attempt, no retries.'
    }`,
    tags: ['Events'],
    request: {
      headers: deliveryHeaders,
      body: { required: true, content: { 'application/json': { schema: payloadSchema(type, event) } } },
    },
    responses: {
      200: { description: 'Any 2xx status acknowledges the delivery' },
    },
  })
}

/** Adds every event type (and the test event) to a document's `webhooks` section. */
export function registerEventWebhooks(registry: OpenAPIRegistry): void {
  for (const [type, event] of Object.entries(eventCatalog)) register(registry, type, event, true)
  register(registry, testEvent.type, testEvent, false)
}
