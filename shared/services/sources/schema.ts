import { z } from '@hono/zod-openapi'
import type { ScheduleName } from '../jobs/schedules.ts'

/**
 * How often a scheduled source may run: every schedule there is. The scrape sweep runs every
 * minute, so 'every_minute' is the shortest that means what it says.
 */
const schedules = [
  'every_minute',
  'every_5_minutes',
  'every_15_minutes',
  'hourly',
  'every_6_hours',
  'daily',
] as const satisfies ScheduleName[]
export type Schedule = (typeof schedules)[number]

const noNul = (s: string) => !s.includes('\u0000')

const feedConfig = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .openapi({
        description:
          'An RSS 2.0, Atom or JSON Feed address: a blog, a YouTube channel feed, Reddit .rss, a Mastodon or Bluesky profile feed',
        example: 'https://www.youtube.com/feeds/videos.xml?channel_id=UC...',
      }),
  })
  .strict()

const apifyConfig = z
  .object({
    actor_id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}([~/][A-Za-z0-9][A-Za-z0-9._-]{0,99})?$/)
      .openapi({
        description: 'The actor: its id, or username~actor-name (username/actor-name also accepted)',
      }),
    input: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((v) => JSON.stringify(v).length <= 64 * 1024, 'at most 64 KiB of JSON')
      .openapi({ description: "The actor's input, as its input schema defines" }),
    timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .default(300)
      .openapi({ description: 'The job fails when the run has not finished by then' }),
    max_items: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(200)
      .openapi({ description: 'Dataset items read per run' }),
    credential_environment: z.enum(['development', 'staging', 'production']).default('production'),
  })
  .strict()

export const sourceInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('feed'), config: feedConfig }),
  z.object({ kind: z.literal('apify'), config: apifyConfig }),
])

const common = {
  name: z.string().trim().min(1).max(200).refine(noNul, 'must not contain NUL'),
  site_id: z.uuid(),
  schedule: z
    .enum(schedules)
    .nullable()
    .openapi({ description: 'Run on its own; null runs only when triggered' }),
  enabled: z.boolean(),
}

export const createSourceBody = z
  .object({
    name: common.name,
    site_id: common.site_id,
    kind: z.enum(['feed', 'apify']),
    config: z.record(z.string(), z.unknown()).openapi({
      description:
        'feed: {url}; apify: {actor_id, input, timeout_seconds, max_items, credential_environment}',
    }),
    schedule: common.schedule.default(null),
    enabled: common.enabled.default(true),
  })
  .strict()
  .openapi('CreateSource', {
    example: {
      name: 'Garden news',
      site_id: '5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f',
      kind: 'feed',
      config: { url: 'https://news.example.com/feed.xml' },
      schedule: 'hourly',
    },
  })

export const updateSourceBody = z
  .object({
    name: common.name.optional(),
    site_id: common.site_id.optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    schedule: common.schedule.optional(),
    enabled: common.enabled.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change')
  .openapi('UpdateSource', { example: { schedule: 'daily', enabled: false } })

export const sourceSchema = z
  .object({
    id: z.uuid(),
    site_id: z.uuid(),
    name: z.string(),
    kind: z.enum(['feed', 'apify']),
    config: z.record(z.string(), z.unknown()),
    schedule: z.enum(schedules).nullable(),
    enabled: z.boolean(),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    last_status: z.enum(['succeeded', 'failed']).nullable(),
    last_error: z.string().nullable(),
    last_job_id: z.uuid().nullable(),
    /**
     * WebSub push, when the feed names a hub (docs/sources.md): new items arrive as the hub
     * pushes them; the schedule stays as the fallback.
     */
    push: z
      .object({
        state: z.enum(['pending', 'active', 'denied', 'expired', 'unsubscribing']),
        hub_url: z.string(),
        lease_expires_at: z.string().nullable(),
        last_push_at: z.string().nullable(),
        last_error: z.string().nullable(),
      })
      .nullable()
      .openapi({
        description: "The source's WebSub subscription, when its feed names a hub; null otherwise",
      }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Source')

export const sourceListSchema = z.object({ data: z.array(sourceSchema), next_cursor: z.string().nullable() })

const sourceItemSchema = z
  .object({
    id: z.uuid(),
    source_id: z.uuid(),
    external_id: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    text: z.string().nullable(),
    author: z.string().nullable(),
    media: z.array(z.object({ url: z.string(), type: z.string().nullable() })),
    published_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('SourceItem')

export const sourceItemListSchema = z.object({
  data: z.array(sourceItemSchema),
  next_cursor: z.string().nullable(),
})

export const triggerScrapeBody = z
  .object({
    source_id: z.uuid(),
    tenant_id: z
      .uuid()
      .optional()
      .openapi({ description: "Required with the service-role key; else the caller's own tenant" }),
  })
  .strict()
  .openapi('TriggerScrape', { example: { source_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f' } })

export type Source = z.infer<typeof sourceSchema>
export type SourceItem = z.infer<typeof sourceItemSchema>
export type CreateSourceInput = z.output<typeof createSourceBody>
export type UpdateSourceInput = z.output<typeof updateSourceBody>
