import { z } from '@hono/zod-openapi'
import { pageQuery } from '@shared/infra/pagination.ts'
import type { ScheduleName } from '../jobs/schedules.ts'
import { availabilities } from './product.ts'

/** How often a scheduled destination may sync: no more often than hourly. */
const schedules = ['hourly', 'every_6_hours', 'daily'] as const satisfies ScheduleName[]
export type Schedule = (typeof schedules)[number]
const schedule = z.enum(schedules)

const networks = ['awin', 'cj', 'amazon', 'feed'] as const
export type Network = (typeof networks)[number]

/** The vault provider (category Affiliate) whose credential each network uses. */
export const networkProvider: Record<Network, string | null> = {
  awin: 'awin',
  cj: 'cj-affiliate',
  amazon: 'amazon-associates',
  feed: null,
}

const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/)

export const awinConfig = z
  .object({
    feed_ids: z
      .array(z.string().regex(/^\d{1,12}$/))
      .min(1)
      .max(50)
      .openapi({
        description: "Awin feed ids (fid) from Create-a-Feed; the download key is the program's credential",
      }),
    language: z
      .string()
      .regex(/^[a-z]{2}$/)
      .default('en'),
  })
  .strict()
export const cjConfig = z
  .object({
    company_id: id.openapi({ description: 'Your CJ company id (cid)' }),
    keywords: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
    page_size: z.number().int().min(1).max(1000).default(1000),
    max_products: z.number().int().min(1).max(10_000).default(10_000),
  })
  .strict()
export const amazonConfig = z
  .object({
    marketplace: z
      .string()
      .regex(/^www\.amazon\.[a-z.]{2,10}$/)
      .default('www.amazon.com'),
    keywords: z.string().trim().min(1).max(200),
    search_index: z
      .string()
      .regex(/^[A-Za-z]{1,40}$/)
      .default('All'),
    max_pages: z.number().int().min(1).max(10).default(10),
  })
  .strict()
export const feedConfig = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(2000),
    format: z.enum(['csv', 'json', 'google_merchant_xml']).openapi({
      description:
        'csv (Google Merchant column names, comma or the delimiter given), json (JSON Lines, or one array up to 20 MiB), google_merchant_xml (RSS 2.0 or Atom with g: elements)',
    }),
    delimiter: z.enum([',', ';', '\t', '|']).default(','),
  })
  .strict()

const programFields = {
  name: z.string().trim().min(1).max(200),
  merchant_ids: z
    .array(id)
    .max(100)
    .default([])
    .openapi({ description: 'Merchant / advertiser ids: only their products are kept (all when empty)' }),
  tracking_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._~-]+$/)
    .nullable()
    .default(null)
    .openapi({
      description: 'Awin clickref, CJ website id (PID), Amazon partner tag; the feed field for generic feeds',
    }),
  credential_name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .default(null)
    .openapi({ description: "The vault credential's name when the tenant has several for the network" }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullable()
    .default(null)
    .openapi({ description: 'Expected ISO 4217 currency: a feed priced in another fails the sync' }),
}

export const programInput = z
  .discriminatedUnion('network', [
    z.object({ network: z.literal('awin'), config: awinConfig, ...programFields }).strict(),
    z.object({ network: z.literal('cj'), config: cjConfig, ...programFields }).strict(),
    z.object({ network: z.literal('amazon'), config: amazonConfig, ...programFields }).strict(),
    z.object({ network: z.literal('feed'), config: feedConfig, ...programFields }).strict(),
  ])
  .openapi({
    example: {
      network: 'feed',
      name: 'Garden tools feed',
      config: { url: 'https://shop.example.com/products.csv', format: 'csv' },
      tracking_id: 'blog-spring',
      currency: 'EUR',
    },
  })
export type ProgramInput = z.infer<typeof programInput>

export const programSchema = z
  .object({
    id: z.uuid(),
    destination_id: z.uuid(),
    network: z.enum(networks),
    name: z.string(),
    merchant_ids: z.array(z.string()),
    config: z.record(z.string(), z.unknown()),
    tracking_id: z.string().nullable(),
    credential_name: z.string().nullable(),
    currency: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('AffiliateProgram')
export type Program = z.infer<typeof programSchema>

export const destinationInput = z
  .object({
    site_id: z.uuid().openapi({ description: 'The site whose articles embed the products' }),
    name: z.string().trim().min(1).max(200),
    schedule: schedule.nullable().default(null),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi({
    example: {
      site_id: '5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f',
      name: 'Deals blog products',
      schedule: 'daily',
    },
  })
export type DestinationInput = z.infer<typeof destinationInput>

export const destinationUpdate = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    schedule: schedule.nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .openapi({ example: { schedule: 'every_6_hours', enabled: true } })
export type DestinationUpdate = z.infer<typeof destinationUpdate>

export const destinationSchema = z
  .object({
    id: z.uuid(),
    site_id: z.uuid(),
    name: z.string(),
    schedule: schedule.nullable(),
    enabled: z.boolean(),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    last_status: z.enum(['succeeded', 'failed']).nullable(),
    last_error: z.string().nullable(),
    last_job_id: z.uuid().nullable(),
    programs: z.array(programSchema),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AffiliateDestination')
export type Destination = z.infer<typeof destinationSchema>
export const destinationListSchema = z.object({
  data: z.array(destinationSchema),
  next_cursor: z.string().nullable(),
})

const decimal = z.string().openapi({ description: 'Exact decimal as a string', example: '19.99' })
const productSchema = z
  .object({
    id: z.uuid(),
    destination_id: z.uuid(),
    program_id: z.uuid(),
    network: z.enum(networks),
    external_id: z.string(),
    merchant: z.string().nullable(),
    title: z.string(),
    description: z.string().nullable(),
    category: z.string().nullable(),
    price: decimal,
    sale_price: decimal.nullable(),
    currency: z.string(),
    availability: z.enum(availabilities),
    image_url: z.string().nullable(),
    affiliate_url: z.string(),
    gtin: z.string().nullable(),
    previous_price: decimal.nullable(),
    previous_sale_price: decimal.nullable(),
    price_changed_at: z.string().nullable(),
    last_synced_at: z.string(),
    raw: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('AffiliateProduct')
export type Product = z.infer<typeof productSchema>
export const productListSchema = z.object({
  data: z.array(productSchema),
  next_cursor: z.string().nullable(),
})

export const productQuery = pageQuery.extend({
  destination_id: z.uuid(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Words in the title, merchant or GTIN' }),
  availability: z.enum(availabilities).optional(),
  include_raw: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: "Include the network's raw record" }),
})

export const syncBody = z
  .object({
    destination_id: z.uuid(),
    tenant_id: z.uuid().optional().openapi({ description: 'Required with the service-role key' }),
  })
  .strict()
  .openapi({ example: { destination_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f' } })
