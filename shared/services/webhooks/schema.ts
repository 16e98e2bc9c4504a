import { z } from '@hono/zod-openapi'
import { eventTypes } from '@shared/infra/events.ts'
import { pageQuery } from '@shared/infra/pagination.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'

/** A documented cap: each subscription is polled and signed for; 25 covers real integrations. */
export const MAX_SUBSCRIPTIONS_PER_TENANT = 25
/** Rotation overlap: how long the previous secret keeps signing (default 24 h, at most 7 days). */
const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 60 * 60
const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 60 * 60

const eventTypeSchema = z.enum(eventTypes, {
  error: () => `must be one of: ${eventTypes.join(', ')}`,
})

const urlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  // Its own message: the schema's `error` above would otherwise name a long URL not a URL.
  .max(2048, { error: 'is too long: at most 2,048 characters' })
  .openapi({
    example: 'https://example.com/hooks/platform',
    description:
      'https only in production; refused when its host resolves to a private, loopback, link-local or metadata address',
  })

const eventsSchema = z
  .array(eventTypeSchema)
  .min(1)
  .max(eventTypes.length)
  .refine((e) => new Set(e).size === e.length, 'events must not repeat')
  .openapi({
    example: ['content.published', 'api_key.created'],
    description: `Any of: ${eventTypes.join(', ')}`,
  })

export const createSubscriptionBody = z
  .object({
    url: urlSchema,
    events: eventsSchema,
    description: z.string().trim().max(500).optional(),
  })
  .strict()
  .openapi('CreateWebhook', {
    example: {
      url: 'https://hooks.example.com/platform',
      events: ['content.published', 'content.updated'],
      description: 'Search index',
    },
  })

export const updateSubscriptionBody = z
  .object({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    description: z.string().trim().max(500).nullable().optional(),
  })
  .strict()
  .refine((b) => b.url !== undefined || b.events !== undefined || b.description !== undefined, {
    message: 'give at least one of url, events, description',
  })
  .openapi('UpdateWebhook', { example: { events: ['content.published'], description: null } })

export const rotateSecretBody = z
  .object({
    overlap_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_SECRET_OVERLAP_SECONDS)
      .default(DEFAULT_SECRET_OVERLAP_SECONDS)
      .openapi({
        description: 'How long the previous secret keeps signing x-service-signature (0 = switch at once)',
      }),
  })
  .strict()
  .openapi('RotateWebhookSecret', { example: { overlap_seconds: 3600 } })

export const redeliverBody = z
  .object({ event_id: z.string().regex(/^evt_[0-9A-Za-z]{1,64}$/, 'must be an evt_ id') })
  .strict()
  .openapi('RedeliverWebhookEvent', { example: { event_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f' } })

export const recoverBody = z
  .object({
    since: isoTimestamp().openapi({
      description: 'Requeue failed deliveries of events created at or after this time',
    }),
  })
  .strict()
  .openapi('RecoverWebhookDeliveries', { example: { since: '2026-11-26T00:00:00Z' } })

export const subscriptionSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['active', 'paused']),
    paused_at: z.string().nullable(),
    paused_reason: z.enum(['failures', 'manual']).nullable(),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .openapi({ description: 'End of the rotation overlap, if one is running' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Webhook')

export const createdSubscriptionSchema = subscriptionSchema
  .extend({
    secret: z.string().openapi({
      example: 'whsec_...',
      description: 'The signing secret (also readable later by owners and admins)',
    }),
  })
  .openapi('CreatedWebhook')

export const secretSchema = z
  .object({
    secret: z.string(),
    previous_secret_expires_at: z.string().nullable(),
  })
  .openapi('WebhookSecret')

export const subscriptionListSchema = z.object({
  data: z.array(subscriptionSchema),
  next_cursor: z.string().nullable(),
})

const attemptSchema = z
  .object({
    id: z.uuid(),
    delivery_id: z.uuid(),
    event_id: z.string(),
    event_type: z.string(),
    attempt: z.number().int(),
    success: z.boolean(),
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    request_body: z
      .string()
      .openapi({ description: 'The JSON body sent (the same bytes for every attempt of an event)' }),
    request_headers: z.record(z.string(), z.string()).nullable().openapi({
      description:
        'The headers sent, with every signature and secret-looking value masked; null for attempts recorded before headers were kept',
    }),
    response_excerpt: z
      .string()
      .nullable()
      .openapi({ description: "The receiver's response body: its first 4096 bytes (UTF-8)" }),
    response_truncated: z.boolean().openapi({ description: 'The response body was longer than 4096 bytes' }),
    error: z.string().nullable(),
    attempted_at: z.string(),
    next_attempt_at: z
      .string()
      .nullable()
      .openapi({ description: 'When the next attempt was scheduled after this one (null: none)' }),
    delivery_status: z.enum(['pending', 'succeeded', 'failed']).openapi({
      description:
        "The event's delivery now: pending (another attempt is due at the delivery's next_attempt_at), succeeded (on this or a later attempt) or failed (gave up)",
    }),
    latest: z.boolean().openapi({
      description:
        "This is the delivery's latest attempt: no later one was made (a retry planned here is still to come)",
    }),
  })
  .openapi('WebhookDeliveryAttempt')

export const attemptListSchema = z.object({
  data: z.array(attemptSchema),
  next_cursor: z.string().nullable(),
})

export const deliverySchema = z
  .object({
    id: z.uuid(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'held', 'succeeded', 'failed']),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('WebhookDelivery')

export const recoverResultSchema = z.object({ requeued: z.number().int() }).openapi('WebhookRecoverResult')

export const dispatchResultSchema = z.object({
  claimed: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  paused: z.number().int(),
})

export const deliveriesQuery = pageQuery.extend({
  event_id: z
    .string()
    .regex(/^evt_[0-9A-Za-z]{1,64}$/)
    .optional()
    .openapi({ description: 'Only attempts of this event' }),
})

export type Subscription = z.infer<typeof subscriptionSchema>
export type DeliveryAttempt = z.infer<typeof attemptSchema>
export type Delivery = z.infer<typeof deliverySchema>
export type CreatedSubscription = z.infer<typeof createdSubscriptionSchema>
export type Secret = z.infer<typeof secretSchema>
