import type { FunctionDeps } from '@shared/infra/deps.ts'
import { tenantAdminEmails } from '@shared/infra/notifier.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Alert thresholds, widest first: 7 days and 1 day before expiry. */
const expiryThresholds = [
  { label: '7d', ms: 7 * DAY_MS },
  { label: '1d', ms: 1 * DAY_MS },
] as const

interface ExpiringRow {
  id: string
  tenant_id: string
  name: string
  environment: string
  key_hint: string
  expires_at: Date
  provider_name: string
}

/**
 * The daily expiry job: tells each owner and admin of the tenant, once per threshold, that a
 * credential expires within 7 days, and again within 1 day. A credential first seen inside the
 * 1-day window gets only the 1-day alert. "Once" is the notifier's unique dedupe key
 * (credential, threshold, the expiry it warns about, recipient), so concurrent or repeated runs
 * on any number of instances send each alert once, and a new expires_at re-arms the alerts.
 */
export async function sendExpiryAlerts(deps: Pick<FunctionDeps, 'sql' | 'clock' | 'notifier' | 'logger'>) {
  const now = deps.clock.now()
  const widest = expiryThresholds[0].ms
  const rows = await deps.sql<ExpiringRow[]>`
    select c.id, c.tenant_id, c.name, c.environment, c.key_hint, c.expires_at, p.name as provider_name
    from public.credentials c join public.providers p on p.id = c.provider_id
    where c.expires_at > ${now} and c.expires_at <= ${new Date(now.getTime() + widest)}
    order by c.expires_at, c.id`
  const recipientsByTenant = new Map<string, string[]>()
  let notified = 0
  for (const row of rows) {
    const left = row.expires_at.getTime() - now.getTime()
    // The narrowest threshold already reached.
    const threshold = [...expiryThresholds].reverse().find((t) => left <= t.ms)!
    let recipients = recipientsByTenant.get(row.tenant_id)
    if (!recipients) {
      recipients = await tenantAdminEmails(deps.sql, row.tenant_id)
      recipientsByTenant.set(row.tenant_id, recipients)
    }
    const days = Math.max(1, Math.ceil(left / DAY_MS))
    const expires = row.expires_at.toISOString()
    for (const recipient of recipients) {
      const sent = await deps.notifier.enqueue(deps.sql, {
        tenantId: row.tenant_id,
        kind: 'credential.expiring',
        recipient,
        subject: `Credential "${row.name}" (${row.provider_name}, ${row.environment}) expires in ${days} day${days === 1 ? '' : 's'}`,
        body:
          `The ${row.environment} credential "${row.name}" for ${row.provider_name} (key ${row.key_hint}) expires at ${expires}.\n` +
          'Rotate it before then (POST /api/credentials/{id}/rotate) so that the services using it keep working.',
        dedupeKey: `credential-expiry:${row.id}:${threshold.label}:${expires}:${recipient}`,
      })
      if (sent) notified++
    }
  }
  if (notified > 0) deps.logger.info('credential expiry alerts queued', { notified, expiring: rows.length })
  return { expiring: rows.length, notified }
}
