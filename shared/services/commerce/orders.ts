import type { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { OrderRecord } from './payloads.ts'
import type { Order, ordersQuery } from './schema.ts'

/** A synced order as stored: the shop's record plus our keys and times. */
interface OrderRow extends OrderRecord {
  id: string
  store_id: string
  created_at: Date
  synced_at: Date
}

// numeric as text: postgres.js returns it as a string already; the casts keep that explicit.
const columns = `id, store_id, external_id, order_number, currency, total_price::text, subtotal_price::text,
  total_tax::text, total_discounts::text, total_shipping::text, financial_status, fulfillment_status, source_status,
  customer_ref, line_items, source_created_at, source_updated_at, created_at, synced_at`

function present(row: OrderRow): Order {
  const { created_at: _, ...rest } = row
  return {
    ...rest,
    source_created_at: row.source_created_at?.toISOString() ?? null,
    source_updated_at: row.source_updated_at.toISOString(),
    synced_at: row.synced_at.toISOString(),
  }
}

/** The tenant's synced orders, newest first (by when they were first synced), with filters. */
export async function listOrders(
  ctx: ServiceContext,
  filter: z.output<typeof ordersQuery>,
  page: PageRequest,
): Promise<Page<Order>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at' }, present, (keyset) =>
    ctx.readAsTenant(
      (q) => q<OrderRow[]>`
      select ${q.unsafe(columns)} from public.commerce_orders
      where tenant_id = ${caller.tenantId}
        ${filter.store_id ? q`and store_id = ${filter.store_id}` : q``}
        ${filter.financial_status ? q`and financial_status = ${filter.financial_status}` : q``}
        ${filter.fulfillment_status ? q`and fulfillment_status = ${filter.fulfillment_status}` : q``}
        ${filter.updated_since ? q`and source_updated_at >= ${new Date(filter.updated_since)}` : q``}
        ${keyset(q)}`,
    ),
  )
}
