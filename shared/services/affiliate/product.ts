/**
 * The one normalised product every network adapter produces (docs/affiliate.md lists the
 * fields and each network's mapping). Prices stay decimal strings from the feed to the
 * database (numeric): never a float.
 */

export const availabilities = ['in_stock', 'out_of_stock', 'preorder', 'backorder', 'unavailable'] as const
export type Availability = (typeof availabilities)[number]

export interface NormalizedProduct {
  external_id: string
  merchant: string | null
  title: string
  description: string | null
  category: string | null
  /** Exact decimal, e.g. "19.99". */
  price: string
  sale_price: string | null
  currency: string
  availability: Availability
  image_url: string | null
  affiliate_url: string
  gtin: string | null
  raw: Record<string, unknown>
}

/** What an adapter yields per record: a product, or why the record was skipped. */
export type FeedEntry = { product: NormalizedProduct } | { skipped: string }

/** A record the adapter cannot map: skipped and counted with this reason. */
class RowError extends Error {
  override name = 'RowError'
}

const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/

/**
 * "19.99", "1,299.00", "19.99 USD", "USD 19.99" -> { amount: "19.99", currency }. Commas are
 * taken as thousands separators only when a dot follows; a lone comma is a decimal comma.
 */
function parseMoney(
  value: unknown,
  field: string,
  fallbackCurrency?: string | null,
): { amount: string; currency: string | null } | null {
  if (value === undefined || value === null) return null
  let text = String(value).trim()
  if (text === '') return null
  let currency: string | null = fallbackCurrency ?? null
  const code = text.match(/(?:^([A-Z]{3})\s*)|(?:\s*([A-Z]{3})$)/)
  if (code) {
    currency = code[1] ?? code[2] ?? currency
    text = text.replace(code[0], '').trim()
  }
  text = text.replace(/^[$£€¥]/, '').trim()
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replaceAll(',', '')
  else if (/^\d+,\d{1,6}$/.test(text)) text = text.replace(',', '.')
  if (!DECIMAL.test(text))
    throw new RowError(`${field} is not a decimal amount: ${JSON.stringify(String(value).slice(0, 40))}`)
  return { amount: normalizeDecimal(text), currency }
}

/** "019.900" -> "19.900" (scale kept: the feed's own precision). */
function normalizeDecimal(text: string): string {
  const [int, frac] = text.split('.')
  const i = int!.replace(/^0+(?=\d)/, '')
  return frac === undefined ? i : `${i}.${frac}`
}

/** Networks spell availability many ways; anything unknown counts as in stock only if it says so. */
function parseAvailability(value: unknown): Availability {
  const v = String(value ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
  if (
    v === '' ||
    ['in_stock', 'instock', 'yes', 'y', '1', 'true', 'available', 'limited_availability'].includes(v)
  )
    return 'in_stock'
  if (['out_of_stock', 'outofstock', 'no', 'n', '0', 'false', 'sold_out', 'discontinued'].includes(v))
    return 'out_of_stock'
  if (['preorder', 'pre_order'].includes(v)) return 'preorder'
  if (['backorder', 'back_order', 'available_for_order'].includes(v)) return 'backorder'
  return 'out_of_stock'
}

const str = (v: unknown, max: number): string | null => {
  if (v === undefined || v === null) return null
  const s = String(v).replaceAll('\u0000', '').trim()
  return s === '' ? null : s.slice(0, max)
}

function httpUrl(v: unknown, field: string, required: boolean): string | null {
  const s = str(v, 4000)
  if (!s) {
    if (required) throw new RowError(`${field} is missing`)
    return null
  }
  try {
    const u = new URL(s)
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href
  } catch {}
  if (required) throw new RowError(`${field} is not an http(s) URL`)
  return null
}

export interface ProductDraft {
  external_id: unknown
  merchant?: unknown
  title: unknown
  description?: unknown
  category?: unknown
  price: unknown
  sale_price?: unknown
  currency?: unknown
  availability?: unknown
  image_url?: unknown
  affiliate_url: unknown
  gtin?: unknown
  raw: Record<string, unknown>
}

/**
 * Checks and normalises one mapped record; throws RowError with the reason when it cannot be a
 * product (no id, no title, no price, a price that is not a decimal, no link).
 */
function normalize(d: ProductDraft): NormalizedProduct {
  const external_id = str(d.external_id, 500)
  if (!external_id) throw new RowError('the product id is missing')
  const title = str(d.title, 1000)
  if (!title) throw new RowError('the title is missing')
  const declared = str(d.currency, 10)?.toUpperCase() ?? null
  const price = parseMoney(d.price, 'price', declared)
  if (!price) throw new RowError('the price is missing')
  const sale = parseMoney(d.sale_price, 'sale_price', price.currency)
  const currency = price.currency
  if (!currency || !/^[A-Z]{3}$/.test(currency)) throw new RowError('the currency is missing or not ISO 4217')
  if (sale?.currency && sale.currency !== currency)
    throw new RowError('the sale price is in another currency')
  const gtin = str(d.gtin, 20)?.replace(/\s/g, '') ?? null
  return {
    external_id,
    merchant: str(d.merchant, 300),
    title,
    description: str(d.description, 20_000),
    category: str(d.category, 500),
    price: price.amount,
    sale_price: sale?.amount ?? null,
    currency,
    availability: parseAvailability(d.availability),
    image_url: httpUrl(d.image_url, 'image_url', false),
    affiliate_url: httpUrl(d.affiliate_url, 'affiliate_url', true)!,
    gtin: gtin && /^\d{8,14}$/.test(gtin) ? gtin : null,
    raw: d.raw,
  }
}

/** Runs a mapper over one record: the product, or the reason it was skipped. */
export function entry(map: () => ProductDraft): FeedEntry {
  try {
    return { product: normalize(map()) }
  } catch (err) {
    if (err instanceof RowError) return { skipped: err.message }
    throw err
  }
}
