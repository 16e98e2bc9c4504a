import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type Cursor, keysetPage, type Page } from '@shared/infra/pagination.ts'
import type { Availability, NormalizedProduct } from './product.ts'
import type { Network, Product } from './schema.ts'

/** A synced product as stored: the adapter's normalised product plus its keys and price history. */
interface ProductRow extends Omit<NormalizedProduct, 'raw'> {
  id: string
  destination_id: string
  program_id: string
  network: Network
  previous_price: string | null
  previous_sale_price: string | null
  price_changed_at: Date | null
  last_synced_at: Date
  created_at: Date
  raw?: Record<string, unknown>
}

export interface ProductSearch {
  destinationId: string
  q?: string
  availability?: Availability
  includeRaw?: boolean
  limit: number
  after: Cursor | null
}

/** "50%_off" -> "50\%\_off": the words are matched literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Products of a destination, newest first with keyset pagination, optionally matching words of
 * `q` (each in the title, merchant or GTIN) and one availability. The tool server exposes this as
 * `platform:search_products`; GET /v1/products serves it to users and content:read keys.
 */
export async function searchAffiliateProducts(
  ctx: ServiceContext,
  search: ProductSearch,
): Promise<Page<Product>> {
  const { caller } = ctx
  const words = (search.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8)
  return keysetPage(
    search,
    { at: 'created_at' },
    (r: ProductRow): Product => ({
      id: r.id,
      destination_id: r.destination_id,
      program_id: r.program_id,
      network: r.network,
      external_id: r.external_id,
      merchant: r.merchant,
      title: r.title,
      description: r.description,
      category: r.category,
      price: r.price,
      sale_price: r.sale_price,
      currency: r.currency,
      availability: r.availability,
      image_url: r.image_url,
      affiliate_url: r.affiliate_url,
      gtin: r.gtin,
      previous_price: r.previous_price,
      previous_sale_price: r.previous_sale_price,
      price_changed_at: r.price_changed_at?.toISOString() ?? null,
      last_synced_at: r.last_synced_at.toISOString(),
      ...(r.raw && { raw: r.raw }),
    }),
    (keyset) =>
      ctx.asTenant(async (tx) => {
        const [dest] = await tx`
      select 1 from public.affiliate_destinations where id = ${search.destinationId} and tenant_id = ${caller.tenantId}`
        if (!dest) throw notFound('Destination')
        const match = words.map((w) => {
          const like = `%${likeEscape(w)}%`
          return tx`and (title ilike ${like} or merchant ilike ${like} or gtin = ${w})`
        })
        return tx<ProductRow[]>`
      select id, destination_id, program_id, network, external_id, merchant, title, description, category,
        price::text as price, sale_price::text as sale_price, currency, availability, image_url, affiliate_url, gtin,
        previous_price::text as previous_price, previous_sale_price::text as previous_sale_price, price_changed_at,
        last_synced_at, created_at ${search.includeRaw ? tx`, raw` : tx``}
      from public.affiliate_products
      where tenant_id = ${caller.tenantId} and destination_id = ${search.destinationId}
        ${search.availability ? tx`and availability = ${search.availability}` : tx``}
        ${match.reduce((acc, m) => tx`${acc} ${m}`, tx``)}
        ${keyset(tx)}`
      }),
  )
}
