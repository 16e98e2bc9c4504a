/**
 * Awin product feeds: the Create-a-Feed download (CSV, gzip) at
 * {AWIN_FEED_URL}/datafeed/download/apikey/{key}/language/{lang}/fid/{ids}/columns/{cols}/format/csv/
 * delimiter/%2C/compression/gzip/. The key is the program's vault credential (provider awin).
 */
import { entry, type FeedEntry } from '../product.ts'
import { awinConfig } from '../schema.ts'
import { csvRecords, downloadFeed } from '../streams.ts'
import { type Adapter, merchantAllowed } from './types.ts'

/** The columns we ask for (Awin's publisher download names). */
const AWIN_COLUMNS = [
  'aw_product_id',
  'merchant_product_id',
  'merchant_id',
  'merchant_name',
  'product_name',
  'description',
  'merchant_category',
  'search_price',
  'rrp_price',
  'currency',
  'aw_deep_link',
  'merchant_image_url',
  'aw_image_url',
  'in_stock',
  'stock_status',
  'ean',
  'product_GTIN',
] as const

function awinFeedUrl(base: string, key: string, config: { feed_ids: string[]; language: string }) {
  const seg = encodeURIComponent
  return (
    `${base.replace(/\/$/, '')}/datafeed/download/apikey/${seg(key)}/language/${seg(config.language)}` +
    `/fid/${config.feed_ids.map(seg).join(',')}/columns/${AWIN_COLUMNS.join(',')}` +
    '/format/csv/delimiter/%2C/compression/gzip/adultcontent/0/'
  )
}

/** Adds the program's click reference to Awin's tracked deep link. */
function withClickref(link: string | undefined, clickref: string | null): string | undefined {
  if (!link || !clickref) return link
  try {
    const u = new URL(link)
    u.searchParams.set('clickref', clickref)
    return u.href
  } catch {
    return link
  }
}

export const awinAdapter: Adapter = async function* ({ deps, program, secret }): AsyncGenerator<FeedEntry> {
  const config = awinConfig.parse(program.config)
  const url = awinFeedUrl(deps.config.AWIN_FEED_URL, secret ?? '', config)
  const bytes = await downloadFeed(deps, url, 'the Awin feed download')
  for await (const r of csvRecords(bytes, 'the Awin feed')) {
    if ('skipped' in r) {
      yield r
      continue
    }
    const row = r.record
    if (!merchantAllowed(program, row.merchant_id)) continue
    yield entry(() => {
      // search_price is what the shopper pays; an rrp above it makes it a sale.
      const onSale = row.rrp_price && row.search_price && Number(row.rrp_price) > Number(row.search_price)
      return {
        external_id: row.aw_product_id || row.merchant_product_id,
        merchant: row.merchant_name,
        title: row.product_name,
        description: row.description,
        category: row.merchant_category,
        price: onSale ? row.rrp_price : row.search_price,
        sale_price: onSale ? row.search_price : null,
        currency: row.currency,
        availability: row.stock_status || row.in_stock,
        image_url: row.merchant_image_url || row.aw_image_url,
        affiliate_url: withClickref(row.aw_deep_link, program.tracking_id),
        gtin: row.ean || row.product_GTIN,
        raw: row,
      }
    })
  }
}
