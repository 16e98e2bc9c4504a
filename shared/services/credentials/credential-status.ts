import { EXPIRING_WITHIN_DAYS } from './schema.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** A credential's status at `now`: expired once past expires_at, expiring within EXPIRING_WITHIN_DAYS of it. */
export function credentialStatus(expiresAt: Date | null, now: Date): 'active' | 'expiring' | 'expired' {
  if (!expiresAt) return 'active'
  const left = expiresAt.getTime() - now.getTime()
  if (left <= 0) return 'expired'
  return left <= EXPIRING_WITHIN_DAYS * DAY_MS ? 'expiring' : 'active'
}
