/**
 * What both platforms' payload readers share: the record shapes they read into, the field
 * schemas (ids as strings, decimal money, timestamps, bounded text) and the body reading.
 *
 * Ids stay strings: Shopify's 64-bit ids exceed JavaScript's safe integers, so the body is parsed
 * with every long integer literal turned into a string first (parseShopJson).
 */
import { z } from 'zod'

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

export const externalId = z
  .union([z.string().regex(/^[\w:/.-]{1,100}$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform(String)

export const optionalId = z
  .union([externalId, z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '0' ? null : v))

/** Decimal money as a string (Postgres numeric); the shops send strings, WooCommerce sometimes numbers. */
export const money = z
  .union([
    z.string().regex(/^-?\d{1,15}(\.\d{1,10})?$/),
    z
      .number()
      .finite()
      .refine((v) => Math.abs(v) < 1e15, 'too large')
      .transform((v) => String(v)),
  ])
  .transform(String)

export const optionalMoney = z
  .union([money, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' ? null : v))

export const text = (max: number) =>
  z
    .string()
    .max(max * 4)
    .nullable()
    .optional()
    .transform((v) => (v == null || v === '' ? null : v.slice(0, max)))

/** Shopify's ISO 8601 with offset, or WooCommerce's *_gmt (no zone, UTC). */
export const timestamp = z
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

export const optionalTimestamp = z
  .union([timestamp, z.null()])
  .optional()
  .transform((v) => v ?? null)

export const quantity = z.coerce.number().int().min(-1_000_000_000).max(1_000_000_000)

interface LineItem {
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

export const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .transform((v) => v.toUpperCase())

export function parseWith<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
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
