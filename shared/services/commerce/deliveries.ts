import type { z } from '@hono/zod-openapi'
import { privilegeErrorAs } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { Delivery, deliveriesQuery, Platform } from './schema.ts'

/** The delivery log as the tenant sees it (never the payload), and replaying dead letters. */

interface DeliveryRow {
  id: string
  store_id: string
  platform: Platform
  topic: string
  webhook_id: string
  event_id: string | null
  triggered_at: Date | null
  api_version: string | null
  payload_bytes: number
  status: Delivery['status']
  outcome: string | null
  last_error: string | null
  attempts: number
  next_attempt_at: Date | null
  received_at: Date
  processed_at: Date | null
}

const columns = `id, store_id, platform, topic, webhook_id, event_id, triggered_at, api_version, payload_bytes,
  status, outcome, last_error, attempts, next_attempt_at, received_at, processed_at`

function present(row: DeliveryRow): Delivery {
  return {
    ...row,
    triggered_at: row.triggered_at?.toISOString() ?? null,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    received_at: row.received_at.toISOString(),
    processed_at: row.processed_at?.toISOString() ?? null,
  }
}

export async function listDeliveries(
  ctx: ServiceContext,
  filter: z.output<typeof deliveriesQuery>,
  page: PageRequest,
): Promise<Page<Delivery>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'received_at' }, present, (keyset) =>
    ctx.readAsTenant(
      (q) => q<DeliveryRow[]>`
      select ${q.unsafe(columns)} from public.commerce_deliveries
      where tenant_id = ${caller.tenantId}
        ${filter.status ? q`and status = ${filter.status}` : q``}
        ${filter.store_id ? q`and store_id = ${filter.store_id}` : q``}
        ${keyset(q)}`,
    ),
  )
}

export async function getDelivery(ctx: ServiceContext, id: string): Promise<Delivery> {
  const { caller } = ctx
  const [row] = await ctx.readAsTenant(
    (q) => q<DeliveryRow[]>`
      select ${q.unsafe(columns)} from public.commerce_deliveries where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Delivery')
  return present(row)
}

/**
 * Queues a dead-lettered delivery again, at once, with a fresh run of the retry schedule. Only
 * dead letters: a processed delivery's payload is gone, and a pending one is already queued.
 */
export async function replayDelivery(ctx: ServiceContext, id: string): Promise<Delivery> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const [replayed] = await tx<DeliveryRow[]>`
      update public.commerce_deliveries
      set status = 'pending', schedule_base = attempts, next_attempt_at = ${now}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} and status = 'failed'
      returning ${tx.unsafe(columns)}`
      if (replayed) return replayed
      const [existing] = await tx<DeliveryRow[]>`
      select ${tx.unsafe(columns)} from public.commerce_deliveries where id = ${id} and tenant_id = ${caller.tenantId}`
      if (existing)
        throw new ServiceError(
          'CONFLICT',
          `Only failed deliveries can be replayed; this one is ${existing.status}`,
        )
      return null
    })
    .catch(privilegeErrorAs('Only owners and admins replay deliveries'))
  if (!row) throw notFound('Delivery')
  return present(row)
}
