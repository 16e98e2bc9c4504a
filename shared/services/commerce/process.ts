/**
 * Processing stored deliveries. The delivery table is the queue: a claim (shared/infra/claim-lease.ts)
 * is one statement that picks due rows with FOR UPDATE SKIP LOCKED, stamps a lease and counts the
 * attempt, then commits.
 * The batch is then applied in one transaction (pipelined statements) that also marks it
 * processed, but only while the lease is still ours; if that fails, each delivery is applied
 * alone, so one bad delivery holds back no other. A processor that dies leaves its lease to expire; the next sweep
 * claims the delivery again. Applying twice is harmless: every write compares the resource's own
 * updated_at, so older data never overwrites newer.
 *
 * Failures: a body that is not JSON or not the topic's shape is dead-lettered at once (retrying
 * cannot help); anything else is retried on the schedule below, then dead-lettered. Dead letters
 * stay visible to the tenant and can be replayed (deliveries.ts).
 */

import {
  claimLeased,
  finishLeased,
  heldBy,
  type Lease,
  type LeaseColumns,
  released,
} from '@shared/infra/claim-lease.ts'
import { isPgError, type Tx } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { describeError } from '@shared/infra/logger.ts'
import {
  type CommerceTopic,
  type OrderRecord,
  PayloadError,
  type ProductRecord,
  readDeletedId,
  readJsonBody,
  readOrder,
  readProduct,
} from './payloads.ts'
import type { Platform } from './schema.ts'

/** Delays before attempts 2..5; attempt 1 is immediate. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
/** Far longer than applying one batch takes; a dead processor's deliveries wait this long. */
export const LEASE_MS = 60_000
const BATCH_SIZE = 50
/** Stay inside pg_cron's 60 s pg_net time-out; the next run picks up whatever is left. */
const RUN_BUDGET_MS = 45_000
const ERROR_CHARS = 500

export interface ClaimedDelivery {
  id: string
  tenant_id: string
  store_id: string
  platform: Platform
  topic: string
  payload: Uint8Array | null
  attempts: number
  schedule_base: number
  triggered_at: Date | null
  received_at: Date
}

export interface ProcessResult {
  claimed: number
  processed: number
  retried: number
  dead_lettered: number
  lease_lost: number
}

const DELIVERY_LEASE: LeaseColumns = { token: 'lease_id', until: 'locked_until' }

/** Claims up to `limit` due deliveries under a new lease (and counts the attempt). */
export async function claimDueDeliveries(
  deps: Pick<FunctionDeps, 'sql'>,
  now: Date,
  limit: number,
): Promise<{ lease: Lease; deliveries: ClaimedDelivery[] }> {
  const { sql } = deps
  const { lease, rows: deliveries } = await claimLeased<ClaimedDelivery>(sql, {
    table: 'public.commerce_deliveries',
    columns: DELIVERY_LEASE,
    leaseMs: LEASE_MS,
    now,
    due: sql`status = 'pending' and next_attempt_at <= ${now}`,
    order: sql`next_attempt_at, received_at`,
    limit,
    also: sql`attempts = t.attempts + 1, updated_at = ${now}`,
    returning: sql`t.id, t.tenant_id, t.store_id, t.platform, t.topic, t.payload, t.attempts, t.schedule_base,
      t.triggered_at, t.received_at`,
  })
  deliveries.sort((a, b) => a.received_at.getTime() - b.received_at.getTime())
  return { lease, deliveries }
}

class LeaseLost extends Error {}

type Outcome = 'applied' | 'stale'

async function upsertOrder(tx: Tx, d: ClaimedDelivery, o: OrderRecord, now: Date): Promise<Outcome> {
  const rows = await tx`
    insert into public.commerce_orders as o
      (tenant_id, store_id, external_id, order_number, currency, total_price, subtotal_price, total_tax,
       total_discounts, total_shipping, financial_status, fulfillment_status, source_status, customer_ref,
       line_items, source_created_at, source_updated_at, created_at, synced_at)
    values (${d.tenant_id}, ${d.store_id}, ${o.external_id}, ${o.order_number}, ${o.currency}, ${o.total_price},
            ${o.subtotal_price}, ${o.total_tax}, ${o.total_discounts}, ${o.total_shipping}, ${o.financial_status},
            ${o.fulfillment_status}, ${o.source_status}, ${o.customer_ref}, ${tx.json(o.line_items as never)},
            ${o.source_created_at}, ${o.source_updated_at}, ${now}, ${now})
    on conflict (store_id, external_id) do update set
      order_number = excluded.order_number, currency = excluded.currency, total_price = excluded.total_price,
      subtotal_price = excluded.subtotal_price, total_tax = excluded.total_tax,
      total_discounts = excluded.total_discounts, total_shipping = excluded.total_shipping,
      financial_status = excluded.financial_status, fulfillment_status = excluded.fulfillment_status,
      source_status = excluded.source_status, customer_ref = excluded.customer_ref,
      line_items = excluded.line_items, source_created_at = coalesce(excluded.source_created_at, o.source_created_at),
      source_updated_at = excluded.source_updated_at, synced_at = excluded.synced_at
    where o.tenant_id = excluded.tenant_id and o.source_updated_at < excluded.source_updated_at
    returning o.id, (o.xmax = 0) as inserted`
  const [applied] = rows as unknown as { id: string; inserted: boolean }[]
  if (!applied) return 'stale'
  // Only a version that changed the stored order is an event: a stale or repeated one is not.
  await recordEvent(tx, {
    tenantId: d.tenant_id,
    type: applied.inserted ? 'order.created' : 'order.updated',
    at: now,
    data: {
      order_id: applied.id,
      store_id: d.store_id,
      platform: d.platform,
      external_id: o.external_id,
      order_number: o.order_number,
      currency: o.currency,
      total_price: o.total_price,
      financial_status: o.financial_status,
      fulfillment_status: o.fulfillment_status,
      source_updated_at: o.source_updated_at.toISOString(),
    },
  })
  return 'applied'
}

async function upsertProduct(tx: Tx, d: ClaimedDelivery, p: ProductRecord, now: Date): Promise<Outcome> {
  const rows = await tx`
    insert into public.commerce_products as p
      (tenant_id, store_id, external_id, title, handle, status, product_type, vendor, price_min, price_max,
       inventory_quantity, variants, images, source_created_at, source_updated_at, created_at, synced_at)
    values (${d.tenant_id}, ${d.store_id}, ${p.external_id}, ${p.title}, ${p.handle}, ${p.status}, ${p.product_type},
            ${p.vendor}, ${p.price_min}, ${p.price_max}, ${p.inventory_quantity}, ${tx.json(p.variants as never)},
            ${tx.json(p.images as never)}, ${p.source_created_at}, ${p.source_updated_at}, ${now}, ${now})
    on conflict (store_id, external_id) do update set
      title = excluded.title, handle = excluded.handle, status = excluded.status,
      product_type = excluded.product_type, vendor = excluded.vendor, price_min = excluded.price_min,
      price_max = excluded.price_max, inventory_quantity = excluded.inventory_quantity,
      variants = excluded.variants, images = excluded.images,
      source_created_at = coalesce(excluded.source_created_at, p.source_created_at),
      source_updated_at = excluded.source_updated_at, deleted_at = null, synced_at = excluded.synced_at
    where p.tenant_id = excluded.tenant_id and p.source_updated_at < excluded.source_updated_at
      and (p.deleted_at is null or p.deleted_at < excluded.source_updated_at)
    returning p.id`
  return rows.length ? 'applied' : 'stale'
}

/**
 * products/delete carries only the id, so the deletion is dated by the shop's trigger time (or
 * our receipt). The row stays as a tombstone: a late create or update older than the deletion
 * cannot bring the product back, and a delete that arrives before the create still counts.
 */
async function markProductDeleted(
  tx: Tx,
  d: ClaimedDelivery,
  externalId: string,
  now: Date,
): Promise<Outcome> {
  const at = d.triggered_at ?? d.received_at
  const rows = await tx`
    insert into public.commerce_products as p
      (tenant_id, store_id, external_id, source_updated_at, deleted_at, created_at, synced_at)
    values (${d.tenant_id}, ${d.store_id}, ${externalId}, ${at}, ${at}, ${now}, ${now})
    on conflict (store_id, external_id) do update set deleted_at = excluded.deleted_at, synced_at = excluded.synced_at
    where p.tenant_id = excluded.tenant_id and p.deleted_at is null and p.source_updated_at <= excluded.deleted_at
    returning p.id`
  return rows.length ? 'applied' : 'stale'
}

/** What applying a delivery will do, decided before the transaction (parsing throws PayloadError). */
function planFor(d: ClaimedDelivery, now: Date): (tx: Tx) => Promise<Outcome> {
  if (!d.payload) throw new PayloadError('the payload is no longer stored')
  const body = readJsonBody(new Uint8Array(d.payload))
  switch (d.topic as CommerceTopic) {
    case 'orders/create':
    case 'orders/updated': {
      const order = readOrder(d.platform, body)
      return (tx) => upsertOrder(tx, d, order, now)
    }
    case 'products/create':
    case 'products/update': {
      const product = readProduct(d.platform, body)
      return (tx) => upsertProduct(tx, d, product, now)
    }
    case 'products/delete': {
      const id = readDeletedId(body)
      return (tx) => markProductDeleted(tx, d, id, now)
    }
    default:
      throw new PayloadError(`topic ${d.topic} is not handled`)
  }
}

/** Postgres data exceptions (class 22: a value it cannot store) fail the same way every time. */
const isDataException = (err: unknown) =>
  err instanceof Error &&
  'code' in err &&
  typeof err.code === 'string' &&
  err.code.startsWith('22') &&
  isPgError(err, err.code)

type DeliveryFate = 'processed' | 'retried' | 'dead_lettered' | 'lease_lost'

/** Records a failed attempt: a retry on the schedule, or the dead letter. Only while the lease is ours. */
async function recordFailure(
  deps: FunctionDeps,
  d: ClaimedDelivery,
  lease: Lease,
  err: unknown,
  now: Date,
): Promise<DeliveryFate> {
  const permanent = err instanceof PayloadError || isDataException(err)
  const attemptsInRun = d.attempts - d.schedule_base
  const deadLetter = permanent || attemptsInRun >= MAX_ATTEMPTS
  const reason =
    err instanceof PayloadError
      ? err.message
      : permanent
        ? 'a value in the payload cannot be stored'
        : 'processing failed; retried on the backoff schedule'
  // One line per failed attempt: who, which delivery, why, and what happens next.
  deps.logger.warn(deadLetter ? 'commerce delivery dead-lettered' : 'commerce delivery failed; retrying', {
    tenant_id: d.tenant_id,
    delivery_id: d.id,
    store_id: d.store_id,
    topic: d.topic,
    reason,
    ...(err instanceof PayloadError ? {} : describeError(err)),
  })
  const retryAt = deadLetter
    ? null
    : new Date(now.getTime() + RETRY_DELAYS_MS[Math.max(0, attemptsInRun - 1)]!)
  const owned = await finishLeased(
    deps.sql,
    lease,
    d.id,
    deps.sql`status = ${deadLetter ? 'failed' : 'pending'}, outcome = ${deadLetter ? 'dead_letter' : null},
      last_error = ${reason.slice(0, ERROR_CHARS)}, next_attempt_at = ${retryAt}, updated_at = ${now}`,
  )
  if (!owned) return 'lease_lost'
  return deadLetter ? 'dead_lettered' : 'retried'
}

interface Planned {
  d: ClaimedDelivery
  apply: (tx: Tx) => Promise<Outcome>
}

/**
 * Applies the planned deliveries and marks them processed, in one transaction, only while the
 * lease is ours. The statements are pipelined: one round trip for the whole batch.
 */
async function applyTogether(deps: FunctionDeps, planned: Planned[], lease: Lease, now: Date): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const outcomes = await Promise.all(planned.map((p) => p.apply(tx)))
    const done = await tx`
      update public.commerce_deliveries d
      set status = 'processed', outcome = v.outcome, payload = null, last_error = null, processed_at = ${now},
          next_attempt_at = null, ${released(tx, lease)}, updated_at = ${now}
      from unnest(${tx.array(planned.map((p) => p.d.id))}::uuid[], ${tx.array(outcomes)}::text[]) as v(id, outcome)
      where d.id = v.id and ${heldBy(tx, lease)}
      returning d.id`
    if (done.length !== planned.length) throw new LeaseLost()
  })
  deps.onOutboxCommitted?.()
}

/**
 * A claimed batch: bodies that cannot be read are dead-lettered; the rest are applied together.
 * When that fails (one delivery's write, or a lost lease), each is applied alone, so one bad
 * delivery never holds back the others.
 */
async function processBatch(
  deps: FunctionDeps,
  deliveries: ClaimedDelivery[],
  lease: Lease,
  result: ProcessResult,
): Promise<void> {
  const now = deps.clock.now()
  const planned: Planned[] = []
  for (const d of deliveries) {
    try {
      planned.push({ d, apply: planFor(d, now) })
    } catch (err) {
      result[await recordFailure(deps, d, lease, err, now)]++
    }
  }
  if (planned.length === 0) return
  try {
    await applyTogether(deps, planned, lease, now)
    result.processed += planned.length
    return
  } catch {
    // Fall through: one at a time.
  }
  for (const p of planned) {
    try {
      await applyTogether(deps, [p], lease, now)
      result.processed++
    } catch (err) {
      result[err instanceof LeaseLost ? 'lease_lost' : await recordFailure(deps, p.d, lease, err, now)]++
    }
  }
}

/** Processes due deliveries until none is left or the run's time budget is spent. */
export async function processDueDeliveries(deps: FunctionDeps): Promise<ProcessResult> {
  const result: ProcessResult = { claimed: 0, processed: 0, retried: 0, dead_lettered: 0, lease_lost: 0 }
  const started = performance.now()
  while (performance.now() - started < RUN_BUDGET_MS) {
    const { lease, deliveries } = await claimDueDeliveries(deps, deps.clock.now(), BATCH_SIZE)
    result.claimed += deliveries.length
    if (deliveries.length > 0) await processBatch(deps, deliveries, lease, result)
    if (deliveries.length < BATCH_SIZE) break
  }
  return result
}

/**
 * How long a kick waits before its run. Deliveries arriving meanwhile join the same run and are
 * applied in one transaction, so under load processing costs a few transactions per second
 * instead of one per delivery, and leaves the database to the acknowledgements.
 */
const KICK_DELAY_MS = 100

const kicks = new WeakMap<object, { current: Promise<void> | null; again: boolean }>()

/**
 * Processes shortly after a receipt instead of at the next sweep. Kicks while a run is waiting
 * join it; kicks during a run cause one more run. Never rejects.
 */
export function kickProcessing(deps: FunctionDeps): Promise<void> {
  let state = kicks.get(deps.sql)
  if (!state) {
    state = { current: null, again: false }
    kicks.set(deps.sql, state)
  }
  const s = state
  s.again = true
  if (s.current) return s.current
  s.current = (async () => {
    try {
      while (s.again) {
        await new Promise((resolve) => setTimeout(resolve, KICK_DELAY_MS))
        s.again = false
        await processDueDeliveries(deps)
      }
    } catch (err) {
      deps.logger.warn('commerce processing kick failed', describeError(err))
    } finally {
      s.current = null
    }
  })()
  return s.current
}
