import type { Queryable, Sql } from './db.ts'
import type { Logger } from './logger.ts'
import type { GuardedFetch } from './outbound.ts'

export interface NotificationInput {
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

/**
 * One notifier for every feature. Notifications are rows first (so a crash never loses one and
 * dedupe is a unique constraint), then sent through an HTTP e-mail API (edge runtimes block SMTP).
 * Without EMAIL_API_URL they are marked sent to the dev mailbox, which the local platform
 * serves at /_dev/mailbox.
 */
export function createNotifier(opts: {
  sql: Sql
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
      let sent = 0
      let failed = 0
      // Claim a batch with SKIP LOCKED so concurrent senders never pick the same rows.
      await opts.sql.begin(async (tx) => {
        const batch = await tx<
          { id: string; recipient: string; subject: string; body: string; attempts: number }[]
        >`
          select id, recipient, subject, body, attempts from public.notifications
          where status = 'pending' order by created_at limit ${limit}
          for update skip locked`
        for (const n of batch) {
          if (!opts.emailApiUrl) {
            await tx`update public.notifications set status = 'sent', sent_at = now(), attempts = attempts + 1 where id = ${n.id}`
            sent++
            continue
          }
          try {
            const res = await opts.fetch(opts.emailApiUrl, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${opts.emailApiKey ?? ''}`,
              },
              body: JSON.stringify({ from: opts.from, to: [n.recipient], subject: n.subject, text: n.body }),
            })
            if (!res.ok) throw new Error(`e-mail API answered ${res.status}`)
            await tx`update public.notifications set status = 'sent', sent_at = now(), attempts = attempts + 1 where id = ${n.id}`
            sent++
          } catch (err) {
            const status = n.attempts + 1 >= MAX_ATTEMPTS ? 'failed' : 'pending'
            await tx`update public.notifications set status = ${status}, attempts = attempts + 1, last_error = ${String(err).slice(0, 500)} where id = ${n.id}`
            opts.logger.warn('notification send failed', { notification_id: n.id, error: String(err) })
            failed++
          }
        }
      })
      return { sent, failed }
    },
  }
}

/** E-mail addresses of a tenant's owners and admins (for operational notices). */
export async function tenantAdminEmails(db: Queryable, tenantId: string): Promise<string[]> {
  const rows = await db<{ email: string }[]>`
    select u.email from public.tenant_members m join auth.users u on u.id = m.user_id
    where m.tenant_id = ${tenantId} and m.role in ('owner', 'admin') and u.email is not null
    order by m.created_at`
  return rows.map((r) => r.email)
}
