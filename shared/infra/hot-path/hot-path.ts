import type { FunctionDeps, ServiceContext } from '../deps.ts'
import { AuthCache } from './auth-cache.ts'
import { AuthChangeFollower } from './auth-changes.ts'
import { LastUsedBuffer } from './last-used.ts'
import { PublishedReadCache } from './published-reads.ts'
import { RateLeases } from './rate-leases.ts'
import { RequestLogBuffer } from './request-log.ts'
import { UsageBuffer } from './usage-buffer.ts'

/**
 * What one instance keeps in memory so that a key-authenticated request needs no write and no
 * lookup in the database (docs/adr/0004-rate-limits-in-postgres.md): the verified-key and
 * membership cache, its change feed, the rate-limit leases, the usage buffer and the request
 * log's buffer. One per database pool (one per function instance), made on first use.
 */
export interface HotPath {
  follower: AuthChangeFollower
  cache: AuthCache
  leases: RateLeases
  usage: UsageBuffer
  /** Keys' last_used_at, written in batches at most a second after a use. */
  lastUsed: LastUsedBuffer
  /** The tenants' request log, written in batches at most a second after a request. */
  requestLog: RequestLogBuffer
  /** Recent answers to published-only keys, for at most CONTENT_READ_CACHE_MS. */
  publishedReads: PublishedReadCache
}

// By the pool: a ServiceContext carries its FunctionDeps' pool as asOwner, the same object.
const hotPaths = new WeakMap<FunctionDeps['sql'], HotPath>()

/** Infrastructure's own reach to the pool, for a service's context as for a function's deps. */
type PoolHolder = FunctionDeps | ServiceContext
const poolOf = (deps: PoolHolder) => ('asOwner' in deps ? deps.asOwner : deps.sql)

export function hotPathOf(deps: PoolHolder): HotPath {
  const sql = poolOf(deps)
  let hot = hotPaths.get(sql)
  if (!hot) {
    const follower = new AuthChangeFollower(sql, deps.config.DATABASE_URL, deps.logger)
    const usage = new UsageBuffer(sql, deps.logger)
    follower.onChange((change) => {
      if (change.tenant_id && !change.user_id && !change.key_hash) usage.forgetTenant(change.tenant_id)
    })
    hot = {
      follower,
      cache: new AuthCache(sql, follower),
      leases: new RateLeases(sql),
      usage,
      lastUsed: new LastUsedBuffer(sql, deps.logger),
      requestLog: new RequestLogBuffer(sql, deps.logger, () => deps.clock.now().getTime()),
      publishedReads: new PublishedReadCache(deps.config.CONTENT_READ_CACHE_MS),
    }
    hotPaths.set(sql, hot)
  }
  return hot
}

/**
 * Writes the buffered usage, last uses and request log and stops the change feed (before the
 * pool closes).
 */
export async function closeHotPath(deps: FunctionDeps): Promise<void> {
  const hot = hotPaths.get(deps.sql)
  if (!hot) return
  await Promise.all([hot.usage.close(), hot.lastUsed.close(), hot.requestLog.close()])
  await hot.follower.stop()
}

/**
 * After this instance committed a change to keys, memberships or plans: applies the change feed
 * now, so the change holds on this instance from the response on (other instances within a
 * second). A failed poll is logged by the follower; the change still commits.
 */
export async function applyAuthChangesNow(deps: PoolHolder): Promise<void> {
  const hot = hotPaths.get(poolOf(deps))
  if (hot) await hot.follower.poll()
}

/**
 * After a content write of the tenant committed through this pool: this instance's published reads
 * of the tenant are forgotten, so its next answer reads the change (other instances' within
 * CONTENT_READ_CACHE_MS).
 */
export function forgetPublishedReads(
  deps: Pick<FunctionDeps, 'sql'> | Pick<ServiceContext, 'asOwner'>,
  tenantId: string,
): void {
  const sql = 'asOwner' in deps ? deps.asOwner : deps.sql
  hotPaths.get(sql)?.publishedReads.forgetTenant(tenantId)
}
