import { claimLeased, finishLeased, type LeaseColumns } from './claim-lease.ts'
import type { Queryable, Sql } from './db.ts'
import type { Clock } from './deps.ts'
import type { Logger } from './logger.ts'
import type { GuardedFetch } from './outbound.ts'

interface NotificationInput {
  tenantId?: string
  /** What the notification is about, e.g. 'webhook.paused'; used for filtering and tests. */
  kind: string
  recipient: string
  subject: string
  body: string
  /** Same key, one notification: makes "notify once" safe across retries and instances. */
  dedupeKey?: string
}

export interface Notifier {
  /** Queues an e-mail; returns false when dedupeKey was already used. Pass the transaction of the change. */
  enqueue(db: Queryable, input: NotificationInput): Promise<boolean>
  /** Sends queued e-mails; safe to run on several instances at once. */
  sendPending(limit?: number): Promise<{ sent: number; failed: number }>
}

const MAX_ATTEMPTS = 5
/** How long a sender owns a claimed notification before another may retry it. */
const LEASE_SECONDS = 120
const NOTIFICATION_LEASE: LeaseColumns = { token: 'lease_id', until: 'locked_until' }

/**
 * One notifier for every feature. Notifications are rows first (so a crash never loses one and
 * dedupe is a unique constraint), then sent through an HTTP e-mail API (edge runtimes block SMTP).
 * Without EMAIL_API_URL they are marked sent to the dev mailbox, which the local platform
 * serves at /_dev/mailbox.
 */
export function createNotifier(opts: {
  sql: Sql
  clock: Clock
  fetch: GuardedFetch
  logger: Logger
  emailApiUrl?: string
  emailApiKey?: string
  from: string
}): Notifier {
  return {
    async enqueue(db, input) {
      const rows = await db`
        insert into public.notifications (tenant_id, kind, recipient, subject, body, dedupe_key)
        values (${input.tenantId ?? null}, ${input.kind}, ${input.recipient}, ${input.subject}, ${input.body}, ${input.dedupeKey ?? null})
        on conflict (dedupe_key) do nothing
        returning id`
      return rows.length === 1
    },

    async sendPending(limit = 50) {
      // Claim a batch under a lease in one short statement (shared/infra/claim-lease.ts); SKIP LOCKED
      // keeps concurrent senders off each other's rows. The HTTP calls happen outside any
      // transaction, and each outcome is written only while this sender's lease still holds.
      const { lease, rows: batch } = await claimLeased<{
        id: string
        recipient: string
        subject: string
        body: string
        attempts: number
      }>(opts.sql, {
        table: 'public.notifications',
        columns: NOTIFICATION_LEASE,
        leaseMs: LEASE_SECONDS * 1000,
        now: opts.clock.now(),
        due: opts.sql`status = 'pending'`,
        order: opts.sql`created_at`,
        limit,
        also: opts.sql`attempts = t.attempts + 1`,
        returning: opts.sql`t.id, t.recipient, t.subject, t.body, t.attempts`,
      })
      let sent = 0
      let failed = 0
      for (const n of batch) {
        try {
          // Without an e-mail API the notification is "sent" to the dev mailbox (the row itself).
          if (opts.emailApiUrl) {
            const res = await opts.fetch(opts.emailApiUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${opts.emailApiKey ?? ''}`,
              },
              body: JSON.stringify({ from: opts.from, to: [n.recipient], subject: n.subject, text: n.body }),
            })
            if (!res.ok) throw new Error(`e-mail API answered ${res.status}`)
          }
          await finishLeased(opts.sql, lease, n.id, opts.sql`status = 'sent', sent_at = now()`)
          sent++
        } catch (err) {
          const status = n.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending'
          // Back off a minute per attempt so far before the next try.
          const notBefore = new Date(opts.clock.now().getTime() + n.attempts * 60_000)
          await finishLeased(
            opts.sql,
            lease,
            n.id,
            opts.sql`status = ${status}, last_error = ${String(err).slice(0, 500)}`,
            { notBefore },
          )
          opts.logger.warn('notification send failed', { notification_id: n.id, error: String(err) })
          failed++
        }
      }
      return { sent, failed }
    },
  }
}

/**
 * Every tenant's owners and admins that have an e-mail address, as a SQL fragment to select from:
 * rows of (tenant_id, email, created_at). The one definition of "who gets operational notices".
 */
export function ownerAndAdminEmails(db: Queryable) {
  return db`(
    select m.tenant_id, u.email, m.created_at
    from public.tenant_members m join auth.users u on u.id = m.user_id
    where m.role in ('owner', 'admin') and u.email is not null
  )`
}

/** E-mail addresses of a tenant's owners and admins (for operational notices). */
export async function tenantAdminEmails(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db<{ email: string }[]>`
    select a.email from ${ownerAndAdminEmails(db)} a
    where a.tenant_id = ${tenantId}
    order by a.created_at`
  return rows.map((r) => r.email)
}
