import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { payloadText } from './dispatcher.ts'
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
type AttemptRow = Omit<DeliveryAttempt, 'attempted_at' | 'next_attempt_at' | 'request_body'> & {
  attempted_at: Date
  next_attempt_at: Date | null
  event_created_at: Date
  data: Record<string, unknown>
}

const presentAttempt = ({ event_created_at, data, ...r }: AttemptRow): DeliveryAttempt => ({
  ...r,
  // Every attempt of an event sends the same bytes, rebuilt from the delivery as the dispatcher does.
  request_body: payloadText({ event_id: r.event_id, event_type: r.event_type, event_created_at, data }),
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
  return keysetPage(
    { limit, after },
    { at: 'attempted_at', column: 'a.attempted_at', id: 'a.id' },
    presentAttempt,
    (keyset) =>
      ctx.asTenant(async (tx) => {
        await findSubscription(tx, caller.tenantId, id)
        return tx<AttemptRow[]>`
      select a.id, a.delivery_id, a.event_id, a.event_type, a.attempt, a.success, a.status_code, a.duration_ms,
             a.request_headers, a.response_excerpt, a.response_truncated, a.error, a.attempted_at, a.next_attempt_at,
             d.event_created_at, d.data, d.status as delivery_status, a.attempt = d.attempts as latest
      from public.webhook_delivery_attempts a
      join public.webhook_deliveries d on d.id = a.delivery_id
      where a.tenant_id = ${caller.tenantId} and a.subscription_id = ${id}
        ${eventId ? tx`and a.event_id = ${eventId}` : tx``}
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
