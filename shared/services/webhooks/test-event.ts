import type { ServiceContext } from '@shared/infra/deps.ts'
import { newEventId } from '@shared/infra/events.ts'
import {
  asPermissionError,
  type DeliveryRow,
  deliveryColumns,
  findSubscription,
  presentDelivery,
} from './rows.ts'
import type { Delivery } from './schema.ts'

export const TEST_EVENT_TYPE = 'webhook.test'

/** Queues a test event: one attempt, no retries, sent also while the subscription is paused. */
export async function sendTestEvent(ctx: ServiceContext, id: string): Promise<Delivery> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const data = {
        subscription_id: id,
        message: 'A test event: your endpoint received and can verify this delivery.',
      }
      const [created] = await tx<DeliveryRow[]>`
      insert into public.webhook_deliveries as d
        (tenant_id, subscription_id, event_id, event_type, event_created_at, data, is_test, next_attempt_at, created_at, updated_at)
      values (${caller.tenantId}, ${id}, ${newEventId()}, ${TEST_EVENT_TYPE}, ${now}, ${tx.json(data)}, true, ${now}, ${now}, ${now})
      returning ${tx.unsafe(deliveryColumns)}`
      return created!
    })
    .catch(asPermissionError)
  ctx.onOutboxCommitted?.()
  return presentDelivery(row)
}
