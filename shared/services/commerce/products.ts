import type { ServiceContext } from '@shared/infra/deps.ts'
import { type Cursor, keysetPage, type Page } from '@shared/infra/pagination.ts'
import type { Image, Variant } from './payloads.ts'
import type { Product } from './schema.ts'

interface ProductRow {
  id: string
  store_id: string
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
  deleted_at: Date | null
  source_created_at: Date | null
  source_updated_at: Date
  created_at: Date
  synced_at: Date
}

const columns = `id, store_id, external_id, title, handle, status, product_type, vendor, price_min::text,
  price_max::text, inventory_quantity, variants, images, deleted_at, source_created_at, source_updated_at,
  created_at, synced_at`

function present(row: ProductRow): Product {
  const { created_at: _, ...rest } = row
  return {
    ...rest,
    deleted: row.deleted_at !== null,
    deleted_at: row.deleted_at?.toISOString() ?? null,
    source_created_at: row.source_created_at?.toISOString() ?? null,
    source_updated_at: row.source_updated_at.toISOString(),
    synced_at: row.synced_at.toISOString(),
  }
}

export interface ProductSearch {
  store_id?: string
  status?: string
  /** Words matched (case-insensitively, all of them) against the title, the handle and the variants' SKUs. */
  q?: string
  include_deleted?: boolean
  limit: number
  after: Cursor | null
}

const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The tenant's synced products, newest first, with filters. REST's GET /v1/commerce/products and
 * the tool server's product tool both call this.
 */
export async function searchProducts(ctx: ServiceContext, search: ProductSearch): Promise<Page<Product>> {
  const { caller } = ctx
  const words = (search.q ?? '').split(/\s+/).filter(Boolean).slice(0, 10)
  return keysetPage(search, { at: 'created_at' }, present, (keyset) =>
    ctx.readAsTenant((q) => {
      const wordFilters = words.map(
        (w) => q`and (title ilike ${likePattern(w)} or handle ilike ${likePattern(w)}
                    or exists (select 1 from jsonb_array_elements(variants) v where v->>'sku' ilike ${likePattern(w)}))`,
      )
      return q<ProductRow[]>`
      select ${q.unsafe(columns)} from public.commerce_products
      where tenant_id = ${caller.tenantId}
        ${search.include_deleted ? q`` : q`and deleted_at is null`}
        ${search.store_id ? q`and store_id = ${search.store_id}` : q``}
        ${search.status ? q`and status = ${search.status}` : q``}
        ${wordFilters.reduce((acc, f) => q`${acc} ${f}`, q``)}
        ${keyset(q)}`
    }),
  )
}
