/**
 * A generic product feed at a URL: CSV, JSON (JSON Lines streamed; a single array up to
 * 20 MiB) or Google Merchant XML (RSS 2.0 / Atom with g: elements). Field names follow Google
 * Merchant's product data specification (id, title, description, link, image_link, price,
 * sale_price, availability, gtin, brand, product_type, google_product_category). gzip is
 * detected by content. An `affiliate_link` field wins over `link`; the tracking id, when set, is
 * added to the link as the `tag` query parameter unless the link already has one (docs/affiliate.md).
 */
import { JobError } from '@shared/infra/jobs/engine.ts'
import { entry, type FeedEntry } from '../product.ts'
import { feedConfig } from '../schema.ts'
import { csvRecords, downloadFeed, merchantXmlItems, textLines } from '../streams.ts'
import { type Adapter, merchantAllowed } from './types.ts'

const MAX_JSON_ARRAY_CHARS = 20 * 1024 * 1024

function withTag(link: unknown, tag: string | null): unknown {
  if (typeof link !== 'string' || !tag) return link
  try {
    const u = new URL(link)
    if (!u.searchParams.has('tag')) u.searchParams.set('tag', tag)
    return u.href
  } catch {
    return link
  }
}

/** A Google Merchant record (CSV row, JSON object or XML item) as a product. */
function merchantEntry(r: Record<string, unknown>, tag: string | null): FeedEntry {
  return entry(() => ({
    external_id: r.id ?? r.offer_id,
    merchant: r.brand ?? r.merchant,
    title: r.title,
    description: r.description,
    category: r.product_type ?? r.google_product_category,
    price: r.price,
    sale_price: r.sale_price,
    currency: r.currency,
    availability: r.availability,
    image_url: r.image_link,
    affiliate_url: withTag(r.affiliate_link ?? r.link, tag),
    gtin: r.gtin ?? r.ean,
    raw: r,
  }))
}

export const feedAdapter: Adapter = async function* ({ deps, program, secret }): AsyncGenerator<FeedEntry> {
  const config = feedConfig.parse(program.config)
  const headers: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {}
  const bytes = await downloadFeed(deps, config.url, 'the product feed', headers)
  const keep = (r: Record<string, unknown>) => merchantAllowed(program, r.brand ?? r.merchant)
  if (config.format === 'csv') {
    for await (const r of csvRecords(bytes, 'the CSV feed', { delimiter: config.delimiter })) {
      if ('skipped' in r) yield r
      else if (keep(r.record)) yield merchantEntry(r.record, program.tracking_id)
    }
    return
  }
  if (config.format === 'google_merchant_xml') {
    for await (const item of merchantXmlItems(bytes, 'the Google Merchant feed'))
      if (keep(item)) yield merchantEntry(item, program.tracking_id)
    return
  }
  // JSON: JSON Lines stream line by line; a document starting with '[' is one array (bounded).
  let arrayText: string | null = null
  let line = 0
  for await (const text of textLines(bytes, 'the JSON feed')) {
    line++
    if (arrayText !== null || (line === 1 && text.trimStart().startsWith('['))) {
      arrayText = `${arrayText ?? ''}${text}\n`
      if (arrayText.length > MAX_JSON_ARRAY_CHARS)
        throw new JobError(
          'a JSON array feed larger than 20 MiB: serve it as JSON Lines (one product per line)',
        )
      continue
    }
    if (!text.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      yield { skipped: `line ${line}: not valid JSON` }
      continue
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      yield { skipped: `line ${line}: not a JSON object` }
      continue
    }
    if (keep(value as Record<string, unknown>))
      yield merchantEntry(value as Record<string, unknown>, program.tracking_id)
  }
  if (arrayText !== null) {
    let list: unknown
    try {
      list = JSON.parse(arrayText)
    } catch {
      throw new JobError('the JSON feed is not valid JSON')
    }
    arrayText = null
    for (const [i, value] of (list as unknown[]).entries()) {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        yield { skipped: `item ${i}: not a JSON object` }
      else if (keep(value as Record<string, unknown>))
        yield merchantEntry(value as Record<string, unknown>, program.tracking_id)
    }
  }
}
