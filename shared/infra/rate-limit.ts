import type { Queryable } from './db.ts'
import type { RateLimitState } from './http/app-env.ts'

/** Limits from the spec (requests per minute). Platform keys carry their own. */
export const rateLimits = {
  authenticated: 1000,
  unauthenticated: 60,
  toolServer: 100,
} as const

const PERIOD_MS = 60_000

export interface RateLimitDecision extends RateLimitState {
  allowed: boolean
  /** Seconds until the next request would be admitted (when refused). */
  retryAfter: number
}

/**
 * The headers' view of a GCRA bucket (see private.take_rate_limit): `tat` is the bucket's
 * theoretical arrival time after this request (before it, when refused).
 *   remaining   requests that would be admitted right now
 *   reset       seconds until the full limit is available again
 *   retryAfter  seconds until the next request is admitted (refusals only)
 */
export function rateLimitDecision(limit: number, allowed: boolean, tat: Date, now: Date): RateLimitDecision {
  const interval = PERIOD_MS / limit
  const ahead = tat.getTime() - now.getTime()
  const reset = Math.max(0, Math.ceil(ahead / 1000))
  if (!allowed) {
    const retryAfter = Math.max(1, Math.ceil((ahead + interval - PERIOD_MS) / 1000))
    return { limit, remaining: 0, reset, allowed, retryAfter }
  }
  const remaining = Math.max(0, Math.min(limit, Math.floor((PERIOD_MS - ahead) / interval + 1e-9)))
  return { limit, remaining, reset, allowed, retryAfter: 0 }
}

/**
 * Takes one request from `bucket` (GCRA: `limit` per minute, bursts of up to `limit`). One atomic
 * upsert in Postgres, so instances sharing the database admit exactly the limit; unlike fixed
 * windows, no burst of twice the limit fits around a minute boundary.
 */
export async function takeRateLimit(db: Queryable, bucket: string, limit: number, now: Date) {
  const [row] = await db<{ allowed: boolean; tat: Date }[]>`
    select allowed, tat from private.take_rate_limit(${bucket}, ${limit}, ${now})`
  return rateLimitDecision(limit, row!.allowed, row!.tat, now)
}

/**
 * Drops full buckets (a TAT in the past is the same as no row), and change-feed rows no instance
 * polls any more (auth-changes.ts looks 30 s back); run by the scheduler.
 */
export async function pruneRateLimitBuckets(db: Queryable, now: Date): Promise<number> {
  const rows = await db`delete from private.rate_limit_buckets where tat < ${now}`
  await db`delete from private.auth_changes where changed_at < now() - interval '10 minutes'`
  return rows.count
}
