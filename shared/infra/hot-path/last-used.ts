import type { Sql } from '../db.ts'
import type { Logger } from '../logger.ts'
import { BatchFlusher, FLUSH_MS } from './batch-flusher.ts'

/** last_used_at is kept at minute resolution: noted once per key (or grant) per minute. */
export const LAST_USED_RESOLUTION_MS = 60_000

/**
 * Keys' last_used_at, written in batches (docs/adr/0004-rate-limits-in-postgres.md): the request
 * path reports each use (api-key.ts), a key's use is noted at most once a minute, and one statement
 * writes every key noted since the last flush, at most FLUSH_MS later and at shutdown. A write
 * transaction's cost is mostly its commit (a WAL flush), so fifty new keys in a second cost one
 * commit instead of fifty. A crash loses at most the uses noted since the last flush: last_used_at
 * then stays up to a minute older than it should, which is its resolution anyway.
 */
export class LastUsedBuffer {
  /** Key id -> the latest use noted (ms), not yet written. */
  private readonly pending = new Map<string, number>()
  /** Key id -> the latest use noted (ms), written or not; the oldest dropped past 100,000 keys. */
  private readonly noted = new Map<string, number>()
  private readonly flusher: BatchFlusher<[string, number][]>
  /** Statements sent and the keys written by those that succeeded, for the benchmark's write count. */
  readonly stats = { statements: 0, keys: 0 }

  constructor(sql: Sql, logger: Logger) {
    this.flusher = new BatchFlusher(
      FLUSH_MS,
      {
        take: () => {
          if (this.pending.size === 0) return []
          const batch = [...this.pending]
          this.pending.clear()
          return [batch]
        },
        write: async (batch) => {
          this.stats.statements++
          // Only rows whose value is a resolution older: another instance may have written a newer one.
          await sql`
            update public.api_keys k set last_used_at = u.at
            from unnest(${batch.map(([id]) => id)}::uuid[], ${batch.map(([, at]) => new Date(at).toISOString())}::timestamptz[]) as u (id, at)
            where k.id = u.id
              and (k.last_used_at is null or k.last_used_at < u.at - ${`${LAST_USED_RESOLUTION_MS} milliseconds`}::interval)`
          this.stats.keys += batch.length
        },
        // Kept for the next flush (a newer use noted meanwhile wins).
        restore: (batch) => {
          for (const [id, at] of batch) this.pending.set(id, Math.max(at, this.pending.get(id) ?? 0))
        },
        failure: 'last_used_at update failed',
        describe: (batch) => ({ keys: batch.length }),
      },
      logger,
    )
  }

  /**
   * A use of `key` at `now` (ms): noted, and written within FLUSH_MS, when the key's last_used_at
   * is a resolution older. `key` is the cache entry, whose lastUsedAt is kept current here.
   */
  used(key: { keyId: string; lastUsedAt: number | null }, now: number): void {
    // A reload of the entry brings the database's value, older than a use noted and not yet
    // written (or written after the reload read): what this instance noted wins.
    const noted = this.noted.get(key.keyId)
    if (noted !== undefined && (key.lastUsedAt === null || noted > key.lastUsedAt)) key.lastUsedAt = noted
    if (key.lastUsedAt !== null && now - key.lastUsedAt <= LAST_USED_RESOLUTION_MS) return
    key.lastUsedAt = now
    this.noted.delete(key.keyId)
    this.noted.set(key.keyId, now)
    if (this.noted.size > 100_000) this.noted.delete(this.noted.keys().next().value!)
    this.pending.set(key.keyId, Math.max(now, this.pending.get(key.keyId) ?? 0))
    this.flusher.schedule()
  }

  /** Writes every noted use in one statement; a failed write keeps them for the next. */
  flush(): Promise<void> {
    return this.flusher.flush()
  }

  /** Writes what is noted (shutdown). */
  close(): Promise<void> {
    return this.flusher.close()
  }
}
