import { z } from '@hono/zod-openapi'
import { isoTimestamp } from '@shared/infra/schemas.ts'

const platforms = ['shopify', 'woocommerce'] as const
export type Platform = (typeof platforms)[number]

const name = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL')
  .openapi({ example: 'Main shop' })

/** Shopify identifies a shop by its permanent myshopify.com host (X-Shopify-Shop-Domain). */
const shopDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/, 'must be a <shop>.myshopify.com domain')
  .openapi({ example: 'example-shop.myshopify.com' })

const siteUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .transform((v) => v.replace(/\/+$/, ''))
  .openapi({ example: 'https://shop.example.com' })

/** The shop's webhook signing secret: Shopify's app client secret (or the admin's signing key), WooCommerce's webhook secret. */
const secret = z
  .string()
  .min(8)
  .max(512)
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL')
  .openapi({ description: 'The webhook signing secret; write-only, stored encrypted' })

export const createStoreBody = z
  .discriminatedUnion('platform', [
    z.object({ platform: z.literal('shopify'), shop_domain: shopDomain, name, secret }).strict(),
    z.object({ platform: z.literal('woocommerce'), site_url: siteUrl, name, secret }).strict(),
  ])
  .openapi('CreateCommerceStore', {
    example: {
      platform: 'shopify',
      shop_domain: 'acme.myshopify.com',
      name: 'Acme shop',
      secret: 'the-shopify-app-client-secret',
    },
  })

export const updateStoreBody = z
  .object({
    name: name.optional(),
    shop_domain: shopDomain.optional().openapi({ description: 'Shopify stores only' }),
    site_url: siteUrl.optional().openapi({ description: 'WooCommerce stores only' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to update')
  .openapi('UpdateCommerceStore', { example: { name: 'Acme shop (EU)' } })

export const rotateStoreSecretBody = z
  .object({ secret })
  .strict()
  .openapi('RotateCommerceStoreSecret', { example: { secret: 'the-new-webhook-signing-secret' } })

export const storeSchema = z
  .object({
    id: z.uuid(),
    platform: z.enum(platforms),
    name: z.string(),
    shop_domain: z.string().nullable().openapi({ description: 'Shopify: the myshopify.com domain' }),
    site_url: z.string().nullable().openapi({ description: 'WooCommerce: the site URL' }),
    webhook_url: z.string().openapi({
      description:
        "The delivery URL to paste into the shop's webhook settings: the store's own address, for Shopify and WooCommerce alike",
      example:
        'https://<ref>.supabase.co/functions/v1/commerce-webhook/stores/7b0f0c36-3f5e-4a55-9a43-7c6d3e1d1d11',
    }),
    secret_updated_at: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CommerceStore')

export const storeListSchema = z.object({ data: z.array(storeSchema), next_cursor: z.string().nullable() })

const deliveryStatuses = ['pending', 'processed', 'ignored', 'failed'] as const

export const deliverySchema = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    platform: z.enum(platforms),
    topic: z.string(),
    webhook_id: z.string(),
    event_id: z.string().nullable(),
    triggered_at: z.string().nullable(),
    api_version: z.string().nullable(),
    payload_bytes: z.number().int(),
    status: z.enum(deliveryStatuses).openapi({
      description:
        'pending (queued or retrying), processed, ignored (a topic outside the five), failed (dead letter)',
    }),
    outcome: z.string().nullable().openapi({ description: 'applied, stale (older than the stored record)' }),
    last_error: z.string().nullable(),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    received_at: z.string(),
    processed_at: z.string().nullable(),
  })
  .openapi('CommerceDelivery')

export const deliveryListSchema = z.object({
  data: z.array(deliverySchema),
  next_cursor: z.string().nullable(),
})

const filterText = z.string().trim().min(1).max(100)

export const deliveriesQuery = z.object({
  status: z.enum(deliveryStatuses).optional(),
  store_id: z.uuid().optional(),
})

const moneyText = z.string().openapi({ description: 'Decimal amount as a string', example: '199.00' })

const lineItemSchema = z.object({
  external_id: z.string(),
  product_id: z.string().nullable(),
  variant_id: z.string().nullable(),
  sku: z.string().nullable(),
  title: z.string().nullable(),
  quantity: z.number().int(),
  price: moneyText.nullable(),
})

const orderSchema = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    external_id: z.string().openapi({ description: "The shop's order id (a string: 64-bit ids)" }),
    order_number: z.string().nullable(),
    currency: z.string(),
    total_price: moneyText,
    subtotal_price: moneyText.nullable(),
    total_tax: moneyText.nullable(),
    total_discounts: moneyText.nullable(),
    total_shipping: moneyText.nullable(),
    financial_status: z.string().nullable(),
    fulfillment_status: z.string().nullable(),
    source_status: z.string().nullable().openapi({ description: "WooCommerce's own order status" }),
    customer_ref: z
      .string()
      .nullable()
      .openapi({ description: "The shop's customer id; no other customer data is kept" }),
    line_items: z.array(lineItemSchema),
    source_created_at: z.string().nullable(),
    source_updated_at: z.string(),
    synced_at: z.string(),
  })
  .openapi('CommerceOrder')

export const orderListSchema = z.object({ data: z.array(orderSchema), next_cursor: z.string().nullable() })

export const ordersQuery = z.object({
  store_id: z.uuid().optional(),
  financial_status: filterText.optional(),
  fulfillment_status: filterText.optional(),
  updated_since: isoTimestamp()
    .optional()
    .openapi({ description: 'Only orders the shop updated at or after this time' }),
})

const variantSchema = z.object({
  external_id: z.string(),
  title: z.string().nullable(),
  sku: z.string().nullable(),
  price: moneyText.nullable(),
  compare_at_price: moneyText.nullable(),
  inventory_quantity: z.number().int().nullable(),
})

const imageSchema = z.object({
  external_id: z.string().nullable(),
  src: z.string(),
  alt: z.string().nullable(),
  position: z.number().int().nullable(),
})

const productSchema = z
  .object({
    id: z.uuid(),
    store_id: z.uuid(),
    external_id: z.string(),
    title: z.string().nullable(),
    handle: z.string().nullable(),
    status: z.string().nullable(),
    product_type: z.string().nullable(),
    vendor: z.string().nullable(),
    price_min: moneyText.nullable(),
    price_max: moneyText.nullable(),
    inventory_quantity: z.number().int().nullable(),
    variants: z.array(variantSchema),
    images: z.array(imageSchema),
    deleted: z.boolean(),
    deleted_at: z.string().nullable(),
    source_created_at: z.string().nullable(),
    source_updated_at: z.string(),
    synced_at: z.string(),
  })
  .openapi('CommerceProduct')

export const productListSchema = z.object({
  data: z.array(productSchema),
  next_cursor: z.string().nullable(),
})

const booleanQuery = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true')

export const productsQuery = z.object({
  store_id: z.uuid().optional(),
  status: filterText.optional(),
  q: filterText.optional().openapi({ description: 'Words in the title, handle or a SKU' }),
  include_deleted: booleanQuery.openapi({
    description: 'Also list products the shop deleted (default false)',
  }),
})

export type Store = z.infer<typeof storeSchema>
export type Delivery = z.infer<typeof deliverySchema>
export type Order = z.infer<typeof orderSchema>
export type Product = z.infer<typeof productSchema>
