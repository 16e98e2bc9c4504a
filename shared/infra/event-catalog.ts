import { z } from '@hono/zod-openapi'
import type { EventType } from './events.ts'
import { isoTimestamp } from './schemas.ts'

/**
 * The event catalog: for every event type, when it occurs and the exact shape of its `data`, with
 * an example. The OpenAPI documents publish it as their `webhooks` section, and the test suite
 * checks every event it causes against it, so the catalog and the emitters cannot drift apart.
 * Objects are strict: a field an emitter adds must be added here (and to docs/webhooks.md) first.
 */

export interface CatalogEvent {
  /** When the event occurs, for the reference. */
  summary: string
  data: z.ZodType
  /** A valid `data`, shown in the reference. */
  example: Record<string, unknown>
}

/** A catalog entry whose schema carries its example. */
function event(summary: string, data: z.ZodObject, example: Record<string, unknown>): CatalogEvent {
  return { summary, data: data.openapi({ example }), example }
}

const uuid = () => z.uuid()
const plans = ['free', 'pro', 'business', 'enterprise'] as const
const roles = ['owner', 'admin', 'member', 'contributor'] as const

const apiKeyData = {
  api_key_id: uuid(),
  name: z.string(),
  kind: z.enum(['platform', 'tool_server']),
  environment: z.enum(['production', 'sandbox', 'development', 'service']),
  key_prefix: z.string(),
  scopes: z.array(z.string()),
  /** Present (true) on a published-only key only. */
  published_only: z.literal(true).optional(),
}
const apiKeyExample = {
  api_key_id: '3f0c1d52-8a43-4f4e-9a0e-2b6f1c7d9e11',
  name: 'server',
  kind: 'platform',
  environment: 'production',
  key_prefix: 'svc_live_AbCd',
  scopes: ['content:read'],
}

const orderData = z.strictObject({
  order_id: uuid().openapi({ description: "The order's id on this platform" }),
  store_id: uuid(),
  platform: z.enum(['shopify', 'woocommerce']),
  external_id: z.string().openapi({ description: "The shop's own id of the order" }),
  order_number: z.string().nullable(),
  currency: z.string(),
  total_price: z.string().openapi({ description: 'A decimal number, as the shop wrote it' }),
  financial_status: z.string().nullable(),
  fulfillment_status: z.string().nullable(),
  source_updated_at: isoTimestamp().openapi({ description: 'When the shop last changed the order' }),
})
const orderExample = {
  order_id: '9d2b7f0e-5c1a-4b8e-8f3d-6a4e2c1b0a99',
  store_id: '0b8e6a3c-2d4f-4e1a-9c7b-5f3e1d2a4b6c',
  platform: 'shopify',
  external_id: '820982911946154508',
  order_number: '1001',
  currency: 'EUR',
  total_price: '59.90',
  financial_status: 'paid',
  fulfillment_status: null,
  source_updated_at: '2026-11-21T12:00:00.000Z',
}

export const eventCatalog = {
  'tenant.created': event(
    'A new tenant signs up',
    z.strictObject({ tenant_id: uuid(), name: z.string(), plan: z.enum(plans), owner_user_id: uuid() }),
    {
      tenant_id: '5a1e6c2b-3d4f-4a8e-9b7c-1e2d3f4a5b6c',
      name: "Ada's team",
      plan: 'free',
      owner_user_id: '7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c',
    },
  ),
  'tenant.updated': event(
    "The tenant's settings change (name, plan or settings)",
    z.strictObject({
      tenant_id: uuid(),
      name: z.string(),
      plan: z.enum(plans),
      changed: z.array(z.enum(['name', 'plan', 'settings'])),
      previous: z
        .strictObject({ name: z.string().optional(), plan: z.enum(plans).optional() })
        .openapi({ description: 'The former value of each changed field (settings are not repeated)' }),
      updated_by: uuid().nullable().openapi({ description: 'null when billing changed the plan' }),
    }),
    {
      tenant_id: '5a1e6c2b-3d4f-4a8e-9b7c-1e2d3f4a5b6c',
      name: 'Ada & co',
      plan: 'free',
      changed: ['name'],
      previous: { name: "Ada's team" },
      updated_by: '7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c',
    },
  ),
  'content.published': event(
    'An article is published',
    z.strictObject({ article_id: uuid(), title: z.string(), site_id: uuid(), published_at: isoTimestamp() }),
    {
      article_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      title: 'Hello world',
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      published_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'content.updated': event(
    'An article is created, modified or deleted',
    z.strictObject({
      article_id: uuid(),
      site_id: uuid(),
      title: z.string(),
      status: z.enum(['draft', 'scheduled', 'published']),
      change: z.enum(['created', 'updated', 'deleted']),
      changed_fields: z.array(z.string()),
      updated_at: isoTimestamp(),
      slug: z.string(),
      excerpt: z.string().nullable(),
      feature_image: z.strictObject({ url: z.string(), alt: z.string() }).nullable(),
      tags: z.array(z.string()).describe('tag slugs'),
      author_id: uuid().nullable(),
      meta_title: z.string().nullable(),
      meta_description: z.string().nullable(),
      canonical_url: z.string().nullable(),
      publish_at: isoTimestamp().nullable(),
      restored_revision_id: uuid().optional(),
    }),
    {
      article_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      title: 'Hello world',
      status: 'draft',
      change: 'updated',
      changed_fields: ['title'],
      updated_at: '2026-11-21T12:00:00.000Z',
      slug: 'hello-world',
      excerpt: null,
      feature_image: { url: 'https://images.example.com/hello.jpg', alt: 'A sunrise' },
      tags: ['news'],
      author_id: '7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c',
      meta_title: null,
      meta_description: null,
      canonical_url: null,
      publish_at: null,
    },
  ),
  'content.scheduled': event(
    'An article is scheduled to be published, or rescheduled',
    z.strictObject({
      article_id: uuid(),
      site_id: uuid(),
      title: z.string(),
      slug: z.string(),
      publish_at: isoTimestamp(),
      rescheduled: z.boolean(),
      scheduled_at: isoTimestamp(),
    }),
    {
      article_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      title: 'Hello world',
      slug: 'hello-world',
      publish_at: '2026-11-22T08:00:00.000Z',
      rescheduled: false,
      scheduled_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'content.unpublished': event(
    'A published article goes back to draft, or a schedule is cancelled',
    z.strictObject({
      article_id: uuid(),
      site_id: uuid(),
      title: z.string(),
      slug: z.string(),
      previous_status: z.enum(['published', 'scheduled']),
      unpublished_at: isoTimestamp(),
    }),
    {
      article_id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      title: 'Hello world',
      slug: 'hello-world',
      previous_status: 'published',
      unpublished_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'site.created': event(
    'A site is added',
    z.strictObject({
      site_id: uuid(),
      name: z.string(),
      domain: z.string().nullable(),
      created_at: isoTimestamp(),
    }),
    {
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      name: 'Blog',
      domain: 'blog.example.com',
      created_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'site.deleted': event(
    'A site is removed, with its articles',
    z.strictObject({
      site_id: uuid(),
      name: z.string(),
      domain: z.string().nullable(),
      articles_deleted: z.number().int().min(0),
      deleted_at: isoTimestamp(),
    }),
    {
      site_id: '6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d',
      name: 'Blog',
      domain: null,
      articles_deleted: 3,
      deleted_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'user.invited': event(
    'A team invitation is sent',
    z.strictObject({
      invitation_id: uuid(),
      email: z.string(),
      role: z.enum(roles),
      invited_by: uuid(),
      expires_at: isoTimestamp(),
    }),
    {
      invitation_id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
      email: 'grace@example.com',
      role: 'member',
      invited_by: '7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c',
      expires_at: '2026-11-28T12:00:00.000Z',
    },
  ),
  'user.joined': event(
    'A user accepts an invitation',
    z.strictObject({ user_id: uuid(), email: z.string(), role: z.enum(roles), invitation_id: uuid() }),
    {
      user_id: '8d9e0f1a-2b3c-4d4e-9f6a-7b8c9d0e1f2a',
      email: 'grace@example.com',
      role: 'member',
      invitation_id: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
    },
  ),
  'api_key.created': event(
    'An API key (platform or tool-server) is created; never the key itself',
    z.strictObject(apiKeyData),
    apiKeyExample,
  ),
  'api_key.revoked': event(
    'An API key is revoked',
    z.strictObject({ ...apiKeyData, revoked_at: isoTimestamp() }),
    { ...apiKeyExample, revoked_at: '2026-11-21T12:00:00.000Z' },
  ),
  'connection.reauthorization_required': event(
    'An integration connection can no longer refresh its access (the provider refused the grant): its tools refuse calls until an owner or admin reconnects it',
    z.strictObject({
      connection_id: uuid(),
      integration_id: uuid(),
      integration_slug: z.string(),
      display_name: z.string().nullable(),
      external_account_name: z.string().nullable(),
      reason: z
        .enum(['invalid_grant'])
        .openapi({ description: "The provider's answer that ended the access" }),
      reconnect_path: z.string().openapi({ description: 'Where an owner or admin starts the reconnection' }),
    }),
    {
      connection_id: '4e5f6a7b-8c9d-4e0f-8a2b-3c4d5e6f7a8b',
      integration_id: 'b1a2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      integration_slug: 'notion',
      display_name: null,
      external_account_name: 'Acme Workspace',
      reason: 'invalid_grant',
      reconnect_path: '/api/integrations/notion/authorize',
    },
  ),
  'assistant.approval_required': event(
    "An assistant turn waits for an owner's or admin's approval of one or more tool calls",
    z.strictObject({
      turn_id: uuid(),
      conversation_id: uuid(),
      triggered_by: z.enum(['assistant', 'automation']),
      tool_calls: z
        .array(z.strictObject({ tool_call_id: uuid(), tool: z.string() }))
        .min(1)
        .openapi({ description: 'The calls that wait (their arguments are in the conversation)' }),
    }),
    {
      turn_id: '5f6a7b8c-9d0e-4f1a-8b3c-4d5e6f7a8b9c',
      conversation_id: '6a7b8c9d-0e1f-4a2b-9c4d-5e6f7a8b9c0d',
      triggered_by: 'assistant',
      tool_calls: [{ tool_call_id: '7b8c9d0e-1f2a-4b3c-8d5e-6f7a8b9c0d1e', tool: 'slack:post_message' }],
    },
  ),
  'job.failed': event(
    'A background job (scrape, article generation, affiliate sync, assistant turn) failed for good: a permanent error, or its retries are used up',
    z.strictObject({
      job_id: uuid(),
      kind: z.string().openapi({ example: 'scrape-social.source' }),
      attempts: z.number().int().min(0),
      max_attempts: z.number().int().min(1),
      reason: z.enum(['permanent_error', 'retries_exhausted', 'stalled']),
      error: z.string().nullable(),
      failed_at: isoTimestamp(),
    }),
    {
      job_id: '8c9d0e1f-2a3b-4c4d-9e6f-7a8b9c0d1e2f',
      kind: 'scrape-social.source',
      attempts: 5,
      max_attempts: 5,
      reason: 'retries_exhausted',
      error: 'feed.example.com did not answer within 10000 ms (time-out)',
      failed_at: '2026-11-21T12:00:00.000Z',
    },
  ),
  'order.created': event(
    "A shop's order reaches the platform for the first time (commerce-webhook)",
    orderData,
    orderExample,
  ),
  'order.updated': event('A synced order changes at the shop (a newer version arrives)', orderData, {
    ...orderExample,
    fulfillment_status: 'fulfilled',
    source_updated_at: '2026-11-22T09:30:00.000Z',
  }),
  'source.items_added': event(
    'A source fetch stored new items (a feed or a social scrape); items it had already seen are no event',
    z.strictObject({
      source_id: uuid(),
      new_items: z.number().int().min(1),
      item_ids: z.array(uuid()).max(50).openapi({ description: 'The first 50 new items' }),
    }),
    {
      source_id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      new_items: 2,
      item_ids: ['7b8c9d0e-1f2a-4b3c-9d4e-5f6a7b8c9d0e', '8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e1f'],
    },
  ),
} satisfies Record<EventType, CatalogEvent>

/** Not subscribable: sent only by `POST /api/webhooks/{id}/test`. */
export const testEvent = {
  type: 'webhook.test',
  ...event(
    'A test delivery to one subscription, sent on request',
    z.strictObject({ subscription_id: uuid(), message: z.string() }),
    {
      subscription_id: '9d0e1f2a-3b4c-4d5e-8f7a-8b9c0d1e2f3a',
      message: 'A test event: your endpoint received and can verify this delivery.',
    },
  ),
}

/** The data schema of a type, the test event's included; undefined for an unknown type. */
export function eventDataSchema(type: string): z.ZodType | undefined {
  if (type === testEvent.type) return testEvent.data
  return (eventCatalog as Record<string, CatalogEvent>)[type]?.data
}
