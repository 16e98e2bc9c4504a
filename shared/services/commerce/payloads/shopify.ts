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

/** Shopify's webhook payloads (its topics are the spec's own names). */

const shopifyOrder = z.object({
  id: externalId,
  name: text(100),
  order_number: z.union([z.string(), z.number()]).nullable().optional(),
  currency,
  total_price: money,
  subtotal_price: optionalMoney,
  total_tax: optionalMoney,
  total_discounts: optionalMoney,
  total_shipping_price_set: z
    .object({ shop_money: z.object({ amount: optionalMoney }).optional() })
    .nullable()
    .optional(),
  financial_status: text(50),
  fulfillment_status: text(50),
  customer: z.object({ id: optionalId }).nullable().optional(),
  line_items: z
    .array(
      z.object({
        id: externalId,
        product_id: optionalId,
        variant_id: optionalId,
        sku: text(200),
        title: text(500),
        quantity,
        price: optionalMoney,
      }),
    )
    .max(2000),
  created_at: optionalTimestamp,
  updated_at: timestamp,
})

const shopifyProduct = z.object({
  id: externalId,
  title: text(500),
  handle: text(500),
  status: text(50),
  product_type: text(200),
  vendor: text(200),
  variants: z
    .array(
      z.object({
        id: externalId,
        title: text(500),
        sku: text(200),
        price: optionalMoney,
        compare_at_price: optionalMoney,
        inventory_quantity: quantity.nullable().optional(),
      }),
    )
    .max(2000)
    .optional(),
  images: z
    .array(
      z.object({
        id: optionalId,
        src: z.string().max(2048),
        alt: text(500),
        position: z.number().int().nullable().optional(),
      }),
    )
    .max(500)
    .optional(),
  created_at: optionalTimestamp,
  updated_at: timestamp,
})

const numericOrder = (a: string, b: string) => Number(a) - Number(b)

function priceRange(prices: (string | null)[]): { min: string | null; max: string | null } {
  const known = prices.filter((p): p is string => p !== null).sort(numericOrder)
  return { min: known[0] ?? null, max: known[known.length - 1] ?? null }
}

export function readShopifyOrder(body: unknown): OrderRecord {
  const o = parseWith(shopifyOrder, body)
  return {
    external_id: o.id,
    order_number: o.name ?? (o.order_number == null ? null : String(o.order_number)),
    currency: o.currency,
    total_price: o.total_price,
    subtotal_price: o.subtotal_price,
    total_tax: o.total_tax,
    total_discounts: o.total_discounts,
    total_shipping: o.total_shipping_price_set?.shop_money?.amount ?? null,
    financial_status: o.financial_status,
    fulfillment_status: o.fulfillment_status,
    source_status: null,
    customer_ref: o.customer?.id ?? null,
    line_items: o.line_items.map((l) => ({
      external_id: l.id,
      product_id: l.product_id,
      variant_id: l.variant_id,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      price: l.price,
    })),
    source_created_at: o.created_at,
    source_updated_at: o.updated_at,
  }
}

export function readShopifyProduct(body: unknown): ProductRecord {
  const p = parseWith(shopifyProduct, body)
  const variants: Variant[] = (p.variants ?? []).map((v) => ({
    external_id: v.id,
    title: v.title,
    sku: v.sku,
    price: v.price,
    compare_at_price: v.compare_at_price,
    inventory_quantity: v.inventory_quantity ?? null,
  }))
  const range = priceRange(variants.map((v) => v.price))
  const stocked = variants.filter((v) => v.inventory_quantity !== null)
  return {
    external_id: p.id,
    title: p.title,
    handle: p.handle,
    status: p.status,
    product_type: p.product_type,
    vendor: p.vendor,
    price_min: range.min,
    price_max: range.max,
    inventory_quantity: stocked.length ? stocked.reduce((s, v) => s + v.inventory_quantity!, 0) : null,
    variants,
    images: (p.images ?? []).map((i) => ({
      external_id: i.id,
      src: i.src,
      alt: i.alt,
      position: i.position ?? null,
    })),
    source_created_at: p.created_at,
    source_updated_at: p.updated_at,
  }
}
