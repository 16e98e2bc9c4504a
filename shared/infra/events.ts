import { randomBase62 } from './crypto.ts'
import type { Queryable } from './db.ts'

/**
 * The event types a subscription may name: the spec's ten, then the platform's own. Each has its
 * `data` schema and an example in event-catalog.ts.
 */
export const eventTypes = [
  'tenant.created',
  'tenant.updated',
  'content.published',
  'content.updated',
  'content.scheduled',
  'content.unpublished',
  'site.created',
  'site.deleted',
  'user.invited',
  'user.joined',
  'api_key.created',
  'api_key.revoked',
  'connection.reauthorization_required',
  'assistant.approval_required',
  'job.failed',
  'order.created',
  'order.updated',
  'source.items_added',
] as const
export type EventType = (typeof eventTypes)[number]

export function newEventId(): string {
  return `evt_${randomBase62(24)}`
}

/**
 * Writes an event to the transactional outbox. Pass the transaction that makes the change, so
 * the change and its event commit or roll back together; deliveries are derived from the outbox.
 */
export async function recordEvent(
  tx: Queryable,
  event: { tenantId: string; type: EventType; data: Record<string, unknown>; at?: Date },
): Promise<string> {
  const id = newEventId()
  // Through the security-definer function: tenants cannot insert events directly.
  await tx`select private.record_event(${id}, ${event.tenantId}, ${event.type}, ${tx.json(event.data as never)}, ${event.at ?? new Date()})`
  return id
}
