import type { ServiceContext } from '@shared/infra/deps.ts'
import { asPermissionError, findSubscription } from './rows.ts'

/** Recovery after an outage: requeue every failed delivery of events created since a time. */
export async function recoverFailedDeliveries(
  ctx: ServiceContext,
  id: string,
  since: Date,
): Promise<{ requeued: number }> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const requeued = await ctx
    .asTenant(async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const rows = await tx`
      update public.webhook_deliveries set status = 'pending', next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
      where subscription_id = ${id} and tenant_id = ${caller.tenantId} and status = 'failed' and not is_test
        and event_created_at >= ${since}
      returning id`
      return rows.length
    })
    .catch(asPermissionError)
  if (requeued > 0) ctx.onOutboxCommitted?.()
  return { requeued }
}
