import { z } from 'zod'
import {
  currency,
  externalId,
  money,
  type OrderRecord,
  optionalId,
  optionalMoney,
  optionalTimestamp,
  type ProductRecord,
  parseWith,
  quantity,
  text,
  timestamp,
  type Variant,
} from './fields.ts'
import type { CommerceTopic } from './topics.ts'

/** WooCommerce's webhook payloads and topic names. */

export const wooTopics: Record<string, CommerceTopic> = {
  'order.created': 'orders/create',
  'order.updated': 'orders/updated',
  'product.created': 'products/create',
  'product.updated': 'products/update',
  'product.deleted': 'products/delete',
}

/** WooCommerce order statuses as Shopify-style financial and fulfilment statuses. */
const wooFinancial: Record<string, string> = {
  pending: 'pending',
  'on-hold': 'pending',
  processing: 'paid',
  completed: 'paid',
  refunded: 'refunded',
  cancelled: 'voided',
  failed: 'failed',
}

const wooOrder = z.object({
  id: externalId,
  number: z.union([z.string(), z.number()]).nullable().optional(),
  currency,
  total: money,
  total_tax: optionalMoney,
  discount_total: optionalMoney,
  shipping_total: optionalMoney,
  status: z.string().max(50),
  customer_id: optionalId,
  line_items: z
    .array(
      z.object({
        id: externalId,
        product_id: optionalId,
        variation_id: optionalId,
        sku: text(200),
        name: text(500),
        quantity,
        price: optionalMoney,
        subtotal: optionalMoney,
      }),
    )
    .max(2000),
  date_created_gmt: optionalTimestamp,
  date_modified_gmt: timestamp,
})

const wooProduct = z.object({
  id: externalId,
  name: text(500),
  slug: text(500),
  status: text(50),
  type: text(50),
  sku: text(200),
  price: optionalMoney,
  regular_price: optionalMoney,
  stock_quantity: quantity.nullable().optional(),
  images: z
    .array(z.object({ id: optionalId, src: z.string().max(2048), alt: text(500) }))
    .max(500)
    .optional(),
  variations: z.array(externalId).max(2000).optional(),
  date_created_gmt: optionalTimestamp,
  date_modified_gmt: timestamp,
})

export function readWooOrder(body: unknown): OrderRecord {
  const o = parseWith(wooOrder, body)
  return {
    external_id: o.id,
    order_number: o.number == null ? null : String(o.number),
    currency: o.currency,
    total_price: o.total,
    subtotal_price: null,
    total_tax: o.total_tax,
    total_discounts: o.discount_total,
    total_shipping: o.shipping_total,
    financial_status: wooFinancial[o.status] ?? null,
    fulfillment_status: o.status === 'completed' ? 'fulfilled' : null,
    source_status: o.status,
    customer_ref: o.customer_id,
    line_items: o.line_items.map((l) => ({
      external_id: l.id,
      product_id: l.product_id,
      variant_id: l.variation_id,
      sku: l.sku,
      title: l.name,
      quantity: l.quantity,
      price: l.price,
    })),
    source_created_at: o.date_created_gmt,
    source_updated_at: o.date_modified_gmt,
  }
}

export function readWooProduct(body: unknown): ProductRecord {
  const p = parseWith(wooProduct, body)
  // A simple product is its own single variant; a variable one names its variations by id only
  // (their prices and stock arrive with the variations, which this sync does not subscribe to).
  const variants: Variant[] =
    p.variations && p.variations.length > 0
      ? p.variations.map((id) => ({
          external_id: id,
          title: null,
          sku: null,
          price: null,
          compare_at_price: null,
          inventory_quantity: null,
        }))
      : [
          {
            external_id: p.id,
            title: p.name,
            sku: p.sku,
            price: p.price,
            compare_at_price: p.regular_price && p.regular_price !== p.price ? p.regular_price : null,
            inventory_quantity: p.stock_quantity ?? null,
          },
        ]
  return {
    external_id: p.id,
    title: p.name,
    handle: p.slug,
    status: p.status,
    product_type: p.type,
    vendor: null,
    price_min: p.price,
    price_max: p.price,
    inventory_quantity: p.stock_quantity ?? null,
    variants,
    images: (p.images ?? []).map((i, index) => ({
      external_id: i.id,
      src: i.src,
      alt: i.alt,
      position: index,
    })),
    source_created_at: p.date_created_gmt,
    source_updated_at: p.date_modified_gmt,
  }
}
