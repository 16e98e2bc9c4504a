import type { ServiceContext } from '@shared/infra/deps.ts'
import { asPermissionError, findSubscription, present } from './rows.ts'
import type { Subscription } from './schema.ts'

/** Pause and resume: a paused subscription holds its events until it is resumed. */

/** Pausing a paused subscription changes nothing (it keeps its reason). */
export async function pauseSubscription(ctx: ServiceContext, id: string): Promise<Subscription> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      await tx`update public.webhook_subscriptions set status = 'paused', paused_at = ${now}, paused_reason = 'manual', updated_at = ${now}
             where id = ${id} and tenant_id = ${caller.tenantId} and status = 'active'`
      return findSubscription(tx, caller.tenantId, id)
    })
    .catch(asPermissionError)
  return present(row, now)
}

/** Reactivates the subscription; the events held while it was paused go out at once. */
export async function resumeSubscription(ctx: ServiceContext, id: string): Promise<Subscription> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const resumed = await tx`
      update public.webhook_subscriptions set status = 'active', paused_at = null, paused_reason = null, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} and status = 'paused' returning id`
      if (resumed.length > 0) {
        // Held deliveries go out now, each with a fresh run of the retry schedule. In-flight
        // ones (leased) are left to their dispatcher.
        await tx`
        update public.webhook_deliveries set next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
        where subscription_id = ${id} and tenant_id = ${caller.tenantId} and status = 'pending'
          and (locked_until is null or locked_until <= ${now})`
      }
      return findSubscription(tx, caller.tenantId, id)
    })
    .catch(asPermissionError)
  // Deliveries became due: let the in-process dispatcher send them now rather than at its next poll.
  ctx.onOutboxCommitted?.()
  return present(row, now)
}
