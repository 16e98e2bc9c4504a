import { privilegeErrorAs, type Tx } from '@shared/infra/db.ts'
import { notFound } from '@shared/infra/errors.ts'
import type { Delivery, Subscription } from './schema.ts'

/** The subscription and delivery rows every webhooks operation reads, and how they are presented. */

/** The vault purpose of signing secrets (the dispatcher decrypts with it too). */
export const SECRET_PURPOSE = 'webhook-secret'

export interface SubscriptionRow {
  id: string
  url: string
  events: string[]
  description: string | null
  status: 'active' | 'paused'
  paused_at: Date | null
  paused_reason: 'failures' | 'manual' | null
  previous_secret_expires_at: Date | null
  created_at: Date
  updated_at: Date
}

export const columns =
  'id, url, events, description, status, paused_at, paused_reason, previous_secret_expires_at, created_at, updated_at'

/** The end of the rotation overlap while it runs, else null. */
export function runningOverlap(expiresAt: Date | null, now: Date): string | null {
  return expiresAt && expiresAt > now ? expiresAt.toISOString() : null
}

export function present(row: SubscriptionRow, now: Date): Subscription {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    paused_at: row.paused_at?.toISOString() ?? null,
    paused_reason: row.paused_reason,
    previous_secret_expires_at: runningOverlap(row.previous_secret_expires_at, now),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

export async function findSubscription(tx: Tx, tenantId: string, id: string): Promise<SubscriptionRow> {
  const [row] = await tx<SubscriptionRow[]>`
    select ${tx.unsafe(columns)} from public.webhook_subscriptions where id = ${id} and tenant_id = ${tenantId}`
  if (!row) throw notFound('Webhook subscription')
  return row
}

export interface DeliveryRow {
  id: string
  event_id: string
  event_type: string
  status: 'pending' | 'succeeded' | 'failed'
  is_test: boolean
  attempts: number
  next_attempt_at: Date | null
  created_at: Date
  subscription_status: 'active' | 'paused'
}

export const deliveryColumns = `d.id, d.event_id, d.event_type, d.status, d.is_test, d.attempts, d.next_attempt_at, d.created_at,
  (select s.status from public.webhook_subscriptions s where s.id = d.subscription_id) as subscription_status`

/** A pending delivery of a paused subscription is shown as held (test events go out anyway). */
export function presentDelivery(row: DeliveryRow): Delivery {
  const held = row.status === 'pending' && row.subscription_status === 'paused' && !row.is_test
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: held ? 'held' : row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}

/** RLS refuses members' writes as a privilege error; answer 403. */
export const asPermissionError = privilegeErrorAs('Only owners and admins manage webhooks')
