import postgres from 'postgres'
import { isTransactionPooler, type Sql } from '../db.ts'
import type { Logger } from '../logger.ts'

/**
 * Follows private.auth_changes (written by triggers on api_keys, tenant_members and tenants) and
 * tells this instance's caches what to drop. A short poll always runs, because it works through
 * a transaction pooler and on the embedded database alike; where the connection can LISTEN, a
 * NOTIFY wakes a poll at once. See docs/adr/0004-rate-limits-in-postgres.md.
 *
 * The bound a cache relies on: `freshAt` is the start of the newest poll whose changes have been
 * applied. A change committed before that instant has been applied. Caches serve an entry only
 * while freshAt is within FRESH_MS of now (else they ask the database), so a revocation reaches
 * every instance within FRESH_MS plus one poll's round trip, even when polls stall.
 */
export interface AuthChange {
  key_hash: string | null
  user_id: string | null
  tenant_id: string | null
}

/** Poll interval (real time). */
const POLL_MS = 200
/** Cached entries are used only while the last applied poll began at most this long ago. */
const FRESH_MS = 700
/**
 * How far back each poll looks again (server time). A change's row carries the time its trigger
 * ran, before its transaction committed; a transaction that takes longer than this to commit after
 * writing it could be missed by every poll (then only the cache's own TTL removes the entry).
 */
const OVERLAP_SECONDS = 30
const CHANNEL = 'auth_changes'

export class AuthChangeFollower {
  /** performance.now() at the start of the newest applied poll. */
  freshAt = Number.NEGATIVE_INFINITY
  /** NOTIFYs received (0 where the connection cannot LISTEN). */
  notifications = 0
  /** Bumped whenever a poll applied a change: a load that spans a bump is not cached. */
  generation = 0
  private since: Date | null = null
  private seen = new Map<string, number>()
  private listeners: ((change: AuthChange) => void)[] = []
  private timer: ReturnType<typeof setTimeout> | null = null
  private polling: Promise<void> | null = null
  private again = false
  private started = false
  private stopped = false
  private listenSql: Sql | null = null
  private unlisten: (() => Promise<void>) | null = null

  constructor(
    private readonly sql: Sql,
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  onChange(listener: (change: AuthChange) => void): void {
    this.listeners.push(listener)
  }

  get isFresh(): boolean {
    return performance.now() - this.freshAt <= FRESH_MS
  }

  /** Starts polling (and listening) on first use; cheap to call on every request. */
  ensureStarted(): void {
    if (this.started || this.stopped) return
    this.started = true
    void this.poll()
    this.listen()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.polling?.catch(() => {})
    await this.unlisten?.().catch(() => {})
    await this.listenSql?.end({ timeout: 1 }).catch(() => {})
  }

  /** Polls now (or right after the poll under way): for NOTIFY and for tests. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.polling) {
      this.again = true
      return this.polling
    }
    this.polling = this.pollOnce().finally(() => {
      this.polling = null
      if (this.again) {
        this.again = false
        void this.poll()
      } else this.schedule()
    })
    return this.polling
  }

  private schedule(): void {
    if (this.stopped || this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      void this.poll()
    }, POLL_MS)
    // Never keep a process alive for the poll alone.
    ;(this.timer as { unref?: () => void }).unref?.()
  }

  private async pollOnce(): Promise<void> {
    const started = performance.now()
    try {
      const rows = await this.sql<(AuthChange & { polled_at: Date; id: string | null })[]>`
        select statement_timestamp() as polled_at, c.id::text, c.key_hash, c.user_id, c.tenant_id
        from (select) now
        left join private.auth_changes c
          on c.changed_at > coalesce(${this.since}::timestamptz, statement_timestamp()) - ${`${OVERLAP_SECONDS} seconds`}::interval
        order by c.id`
      let applied = 0
      for (const row of rows) {
        if (row.id === null || this.seen.has(row.id)) continue
        this.seen.set(row.id, started)
        applied++
        for (const listener of this.listeners) listener(row)
      }
      if (applied > 0) this.generation++
      this.since = rows[0]!.polled_at
      this.freshAt = started
      // Forget ids no poll can return again.
      for (const [id, at] of this.seen) {
        if (started - at > 2 * OVERLAP_SECONDS * 1000) this.seen.delete(id)
        else break
      }
    } catch (err) {
      this.logger.warn('auth change poll failed', { error: String(err) })
    }
  }

  /** LISTEN where the connection allows it: not through a transaction pooler. */
  private listen(): void {
    if (isTransactionPooler(this.databaseUrl)) return
    this.listenSql = postgres(this.databaseUrl, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'tenant-platform-auth-changes' },
    })
    this.listenSql
      .listen(CHANNEL, () => {
        this.notifications++
        void this.poll()
      })
      .then(
        (meta) => {
          this.unlisten = meta.unlisten
        },
        (err) => this.logger.warn('auth changes: LISTEN failed, polling only', { error: String(err) }),
      )
  }
}
