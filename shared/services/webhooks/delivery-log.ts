import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import {
  asPermissionError,
  type DeliveryRow,
  deliveryColumns,
  findSubscription,
  presentDelivery,
} from './rows.ts'
import type { Delivery, DeliveryAttempt } from './schema.ts'

/** The delivery log of a subscription (every attempt, newest first) and redelivery of one event. */

/** An attempt as stored: the presented shape with its times as dates. */
type AttemptRow = Omit<DeliveryAttempt, 'attempted_at' | 'next_attempt_at'> & {
  attempted_at: Date
  next_attempt_at: Date | null
}

const presentAttempt = (r: AttemptRow): DeliveryAttempt => ({
  ...r,
  attempted_at: r.attempted_at.toISOString(),
  next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
})

export async function listDeliveryAttempts(
  ctx: ServiceContext,
  id: string,
  query: PageRequest & { eventId?: string },
): Promise<Page<DeliveryAttempt>> {
  const { caller } = ctx
  const { limit, after, eventId } = query
  return keysetPage({ limit, after }, { at: 'attempted_at' }, presentAttempt, (keyset) =>
    ctx.asTenant(async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      return tx<AttemptRow[]>`
      select id, delivery_id, event_id, event_type, attempt, success, status_code, duration_ms, response_excerpt, error,
             attempted_at, next_attempt_at
      from public.webhook_delivery_attempts
      where tenant_id = ${caller.tenantId} and subscription_id = ${id}
        ${eventId ? tx`and event_id = ${eventId}` : tx``}
        ${keyset(tx)}`
    }),
  )
}

/** Sends one event again: a new run of the retry schedule, same event id. */
export async function redeliverEvent(ctx: ServiceContext, id: string, eventId: string): Promise<Delivery> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const [queued] = await tx<DeliveryRow[]>`
      update public.webhook_deliveries d set status = 'pending', next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
      where d.subscription_id = ${id} and d.tenant_id = ${caller.tenantId} and d.event_id = ${eventId}
        and (d.locked_until is null or d.locked_until <= ${now})
      returning ${tx.unsafe(deliveryColumns)}`
      if (queued) return queued
      const [exists] =
        await tx`select 1 from public.webhook_deliveries where subscription_id = ${id} and event_id = ${eventId}`
      if (!exists) throw notFound('Delivery of this event to this subscription')
      throw new ServiceError(
        'CONFLICT',
        'An attempt of this delivery is in flight; try again when it has finished',
      )
    })
    .catch(asPermissionError)
  ctx.onOutboxCommitted?.()
  return presentDelivery(row)
}
