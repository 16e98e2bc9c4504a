import type { Queryable } from './db.ts'
import type { RateLimitState } from './http/app-env.ts'

/** Limits from the spec (requests per minute). Platform keys carry their own. */
export const rateLimits = {
  authenticated: 1000,
  unauthenticated: 60,
  toolServer: 100,
} as const

const WINDOW_MS = 60_000

export function windowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS)
}

export function rateLimitState(
  limit: number,
  hits: number,
  now: Date,
): RateLimitState & { allowed: boolean } {
  const reset = Math.max(1, Math.ceil((windowStart(now).getTime() + WINDOW_MS - now.getTime()) / 1000))
  return { limit, remaining: Math.max(0, limit - hits), reset, allowed: hits <= limit }
}

/**
 * Counts one request against `bucket` in the current one-minute window. The upsert is atomic in
 * Postgres, so instances sharing the database admit exactly `limit` requests per window.
 * Requests over the limit are counted too; they are refused either way.
 */
export async function countRequest(db: Queryable, bucket: string, limit: number, now: Date) {
  const [row] = await db<{ hits: number }[]>`
    insert into private.rate_limit_counters (bucket, window_start, hits)
    values (${bucket}, ${windowStart(now)}, 1)
    on conflict (bucket, window_start) do update set hits = private.rate_limit_counters.hits + 1
    returning hits`
  return rateLimitState(limit, row!.hits, now)
}

/** Drops finished windows; run by the scheduler. */
export async function pruneRateLimitCounters(db: Queryable, now: Date): Promise<number> {
  const rows =
    await db`delete from private.rate_limit_counters where window_start < ${new Date(windowStart(now).getTime() - WINDOW_MS)}`
  return rows.count
}
