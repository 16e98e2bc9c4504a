/**
 * The shops' payloads, read into one shape per resource. Only the fields the sync needs are read;
 * everything else (customer names, e-mail, addresses, notes) is dropped here and never stored.
 *
 * Ids stay strings: Shopify's 64-bit ids exceed JavaScript's safe integers, so the body is parsed
 * with every long integer literal turned into a string first (parseShopJson).
 */
import { z } from 'zod'

/** The five topics the spec names; the shops' own names map onto these. */
export const commerceTopics = [
  'orders/create',
  'orders/updated',
  'products/create',
  'products/update',
  'products/delete',
] as const
export type CommerceTopic = (typeof commerceTopics)[number]

const wooTopics: Record<string, CommerceTopic> = {
  'order.created': 'orders/create',
  'order.updated': 'orders/updated',
  'product.created': 'products/create',
  'product.updated': 'products/update',
  'product.deleted': 'products/delete',
}

/** Our topic for a shop's topic header, or null for a topic we do not handle. */
export function normaliseTopic(platform: 'shopify' | 'woocommerce', topic: string): CommerceTopic | null {
  if (platform === 'woocommerce') return wooTopics[topic] ?? null
  return (commerceTopics as readonly string[]).includes(topic) ? (topic as CommerceTopic) : null
}

/** A body that is not what the topic promises: dead-lettered at once, never retried. */
export class PayloadError extends Error {
  override name = 'PayloadError'
}

const isDigit = (c: number) => c >= 48 && c <= 57

/**
 * JSON.parse, except that integer literals of 16 or more digits come back as strings (exactly
 * as written) instead of being rounded to the nearest double.
 */
export function parseShopJson(text: string): unknown {
  let out = ''
  let copied = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // Skip a string literal, escapes included.
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92) i += 2
        else if (d === 34) {
          i++
          break
        } else i++
      }
      continue
    }
    if (c === 45 || isDigit(c)) {
      const start = i
      let j = c === 45 ? i + 1 : i
      while (j < n && isDigit(text.charCodeAt(j))) j++
      const digits = j - start - (c === 45 ? 1 : 0)
      const next = text.charCodeAt(j)
      const integer = next !== 46 && next !== 101 && next !== 69
      if (integer && digits > 15) {
        out += `${text.slice(copied, start)}"${text.slice(start, j)}"`
        copied = j
      } else {
        while (j < n && /[0-9.eE+-]/.test(text[j]!)) j++
      }
      i = j
      continue
    }
    i++
  }
  return JSON.parse(copied === 0 ? text : out + text.slice(copied))
}

const externalId = z
  .union([z.string().regex(/^[\w:/.-]{1,100}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform(String)

const optionalId = z
  .union([externalId, z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '0' ? null : v))

/** Decimal money as a string (Postgres numeric); the shops send strings, WooCommerce sometimes numbers. */
const money = z
  .union([
    z.string().regex(/^-?\d{1,15}(\.\d{1,10})?$/),
    z
      .number()
      .finite()
      .refine((v) => Math.abs(v) < 1e15, 'too large')
      .transform((v) => String(v)),
  ])
  .transform(String)

const optionalMoney = z
  .union([money, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' ? null : v))

const text = (max: number) =>
  z
    .string()
    .max(max * 4)
    .nullable()
    .optional()
    .transform((v) => (v == null || v === '' ? null : v.slice(0, max)))

/** Shopify's ISO 8601 with offset, or WooCommerce's *_gmt (no zone, UTC). */
const timestamp = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const iso = /(Z|[+-]\d\d:?\d\d)$/.test(v) ? v : `${v}Z`
    const at = new Date(iso)
    if (Number.isNaN(at.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'not a timestamp' })
      return z.NEVER
    }
    return at
  })

const optionalTimestamp = z
  .union([timestamp, z.null()])
  .optional()
  .transform((v) => v ?? null)

const quantity = z.coerce.number().int().min(-1_000_000_000).max(1_000_000_000)

export interface LineItem {
  external_id: string
  product_id: string | null
  variant_id: string | null
  sku: string | null
  title: string | null
  quantity: number
  price: string | null
}

export interface OrderRecord {
  external_id: string
  order_number: string | null
  currency: string
  total_price: string
  subtotal_price: string | null
  total_tax: string | null
  total_discounts: string | null
  total_shipping: string | null
  financial_status: string | null
  fulfillment_status: string | null
  source_status: string | null
  customer_ref: string | null
  line_items: LineItem[]
  source_created_at: Date | null
  source_updated_at: Date
}

export interface Variant {
  external_id: string
  title: string | null
  sku: string | null
  price: string | null
  compare_at_price: string | null
  inventory_quantity: number | null
}

export interface Image {
  external_id: string | null
  src: string
  alt: string | null
  position: number | null
}

export interface ProductRecord {
  external_id: string
  title: string | null
  handle: string | null
  status: string | null
  product_type: string | null
  vendor: string | null
  price_min: string | null
  price_max: string | null
  inventory_quantity: number | null
  variants: Variant[]
  images: Image[]
  source_created_at: Date | null
  source_updated_at: Date
}

const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .transform((v) => v.toUpperCase())

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

const deletedResource = z.object({ id: externalId })

function parseWith<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body)
  if (!result.success) {
    const fields = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
      .join('; ')
    throw new PayloadError(`unexpected payload shape: ${fields}`)
  }
  return result.data
}

/** Reads the raw body as JSON, or throws PayloadError (the shop really sent it: dead-letter it). */
export function readJsonBody(raw: Uint8Array): unknown {
  let bodyText: string
  try {
    bodyText = new TextDecoder('utf-8', { fatal: true }).decode(raw)
  } catch {
    throw new PayloadError('body is not UTF-8')
  }
  try {
    return parseShopJson(bodyText)
  } catch {
    throw new PayloadError('body is not valid JSON')
  }
}

const numericOrder = (a: string, b: string) => Number(a) - Number(b)

export function readOrder(platform: 'shopify' | 'woocommerce', body: unknown): OrderRecord {
  if (platform === 'shopify') {
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

function priceRange(prices: (string | null)[]): { min: string | null; max: string | null } {
  const known = prices.filter((p): p is string => p !== null).sort(numericOrder)
  return { min: known[0] ?? null, max: known[known.length - 1] ?? null }
}

export function readProduct(platform: 'shopify' | 'woocommerce', body: unknown): ProductRecord {
  if (platform === 'shopify') {
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

export function readDeletedId(body: unknown): string {
  return parseWith(deletedResource, body).id
}
