import type { MemberRole } from '../caller.ts'
import type { Sql } from '../db.ts'
import type { AuthChange, AuthChangeFollower } from './auth-changes.ts'

/**
 * Per-instance caches of what authorization reads from the database on every request: verified
 * keys by their hash, and users' memberships. Entries are dropped by the change feed
 * (AuthChangeFollower) when a key is revoked, expires early, changes scope, family or limit, or its
 * creator leaves the tenant, and when a membership or role changes. Entries are served only while
 * the feed is fresh (see auth-changes.ts), so those changes reach every instance within a second.
 * Expiry is checked against the clock on every use. See docs/adr/0004-rate-limits-in-postgres.md.
 */

/** A key that is a credential: what authorization needs, nothing secret. */
export interface VerifiedKey {
  keyId: string
  tenantId: string
  /** The creator, who is a member of the tenant (else the key is no credential). */
  userId: string
  /**
   * The creator's current role, read with the key (the same join that checks membership, so no
   * extra statement); a role change drops the entry like a removal does.
   */
  creatorRole: MemberRole
  family: 'platform' | 'tool_server'
  scopes: string[]
  rateLimit: number
  expiresAt: number | null
  lastUsedAt: number | null
  /** Reads published content only (row-level security sees the claim). */
  publishedOnly: boolean
  /** Browser origins a published-only key answers CORS for. */
  allowedOrigins: string[]
}

/** How long an entry lives without a change (real time): a backstop for a change the feed missed. */
const POSITIVE_TTL_MS = 5 * 60_000
/** Unknown, revoked or expired keys: long enough to turn a flood away, short enough to notice a fix. */
const NEGATIVE_TTL_MS = 5_000
/** Beyond this many entries the oldest go first (Map keeps insertion order). */
const MAX_ENTRIES = 100_000
/** How long a request waits for the change feed's poll before it asks the database itself. */
const POLL_WAIT_MS = 250

interface Entry<T> {
  value: T
  until: number
}

class BoundedCache<T> {
  readonly map = new Map<string, Entry<T>>()
  /** Reads of an entry under way, with the feed's generation when each began. */
  readonly loading = new Map<string, { generation: number; value: Promise<T> }>()
  get(key: string): T | undefined {
    const entry = this.map.get(key)
    if (!entry) return undefined
    if (entry.until < performance.now()) {
      this.map.delete(key)
      return undefined
    }
    return entry.value
  }
  set(key: string, value: T, ttlMs: number): void {
    this.map.delete(key)
    this.map.set(key, { value, until: performance.now() + ttlMs })
    if (this.map.size > MAX_ENTRIES) this.map.delete(this.map.keys().next().value!)
  }
}

export class AuthCache {
  readonly keys = new BoundedCache<VerifiedKey | null>()
  readonly members = new BoundedCache<MemberRole | null>()
  /** Loads that went to the database (for the benchmark and tests). */
  misses = 0

  constructor(
    private readonly sql: Sql,
    readonly follower: AuthChangeFollower,
  ) {
    follower.onChange((change) => this.drop(change))
  }

  private drop(change: AuthChange): void {
    if (change.key_hash) this.keys.map.delete(change.key_hash)
    if (change.user_id && change.tenant_id) {
      this.members.map.delete(`${change.user_id}:${change.tenant_id}`)
      // The creator's membership is part of every key they made in the tenant.
      for (const [hash, entry] of this.keys.map) {
        if (entry.value?.userId === change.user_id && entry.value.tenantId === change.tenant_id)
          this.keys.map.delete(hash)
      }
    } else if (change.tenant_id && !change.key_hash) {
      for (const [key] of this.members.map)
        if (key.endsWith(`:${change.tenant_id}`)) this.members.map.delete(key)
      for (const [hash, entry] of this.keys.map) {
        if (entry.value?.tenantId === change.tenant_id) this.keys.map.delete(hash)
      }
    }
  }

  /**
   * The key with this hash if it is a credential of `family` at `now` (not revoked or expired, its
   * creator a member), else null. From the cache while the feed is fresh; otherwise one lookup.
   */
  async key(hash: string, family: VerifiedKey['family'], now: Date): Promise<VerifiedKey | null> {
    const cached = (await this.fresh()) ? this.keys.get(hash) : undefined
    const key =
      cached !== undefined
        ? cached
        : await this.load(this.keys, hash, async () => {
            const [row] = await this.sql<
              {
                id: string
                tenant_id: string
                created_by: string
                creator_role: MemberRole
                family: VerifiedKey['family']
                scopes: string[]
                rate_limit_per_minute: number
                expires_at: Date | null
                last_used_at: Date | null
                published_only: boolean
                allowed_origins: string[]
              }[]
            >`
              select ak.id, ak.tenant_id, ak.created_by, m.role as creator_role, ak.family, ak.scopes, ak.rate_limit_per_minute,
                     ak.expires_at, ak.last_used_at, ak.published_only, ak.allowed_origins
              from public.api_keys ak
              join public.tenant_members m on m.tenant_id = ak.tenant_id and m.user_id = ak.created_by
              where ak.key_hash = ${hash} and ak.revoked_at is null`
            if (!row) return null
            return {
              keyId: row.id,
              tenantId: row.tenant_id,
              userId: row.created_by,
              creatorRole: row.creator_role,
              family: row.family,
              scopes: row.scopes,
              rateLimit: row.rate_limit_per_minute,
              expiresAt: row.expires_at?.getTime() ?? null,
              lastUsedAt: row.last_used_at?.getTime() ?? null,
              publishedOnly: row.published_only,
              allowedOrigins: row.allowed_origins,
            }
          })
    if (!key || key.family !== family) return null
    if (key.expiresAt !== null && key.expiresAt <= now.getTime()) return null
    return key
  }

  /** The user's role in the tenant, or null when not a member; cached like keys. */
  async memberRole(userId: string, tenantId: string): Promise<MemberRole | null> {
    const id = `${userId}:${tenantId}`
    const cached = (await this.fresh()) ? this.members.get(id) : undefined
    if (cached !== undefined) return cached
    return this.load(this.members, id, async () => {
      const [row] = await this.sql<{ role: MemberRole }[]>`
        select role from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
      return row?.role ?? null
    })
  }

  /**
   * Whether entries may be served. When the feed is not fresh (a stalled poll, a busy machine),
   * the requests wait for one poll together rather than each looking its key up; if even that
   * leaves the feed stale (its poll began too long ago), they go to the database.
   */
  private async fresh(): Promise<boolean> {
    this.follower.ensureStarted()
    if (this.follower.isFresh) return true
    if (this.keys.map.size === 0 && this.members.map.size === 0) return false
    // Waited for a short while only: a poll stuck on a connection the database dropped (a restart)
    // must not hold requests; they go to the database instead, as with a stale feed.
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      this.follower.poll(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, POLL_WAIT_MS)
      }),
    ])
    clearTimeout(timer)
    return this.follower.isFresh
  }

  /**
   * A database read, cached unless a change was applied while it ran (its snapshot may predate
   * that change, which the feed has already delivered and will not deliver again).
   */
  private async load<T>(cache: BoundedCache<T | null>, id: string, read: () => Promise<T | null>) {
    // Requests for the same entry share a read under way (a stale feed on a busy instance would
    // otherwise send one lookup per waiting request), but only a read that began after the last
    // change this instance applied: one begun before may hold what that change replaced.
    const generation = this.follower.generation
    const running = cache.loading.get(id)
    if (running && running.generation === generation) return running.value
    const value = (async () => {
      this.misses++
      const found = await read()
      if (generation === this.follower.generation)
        cache.set(id, found, found === null ? NEGATIVE_TTL_MS : POSITIVE_TTL_MS)
      return found
    })()
    const entry = { generation, value }
    cache.loading.set(id, entry)
    value
      .finally(() => {
        if (cache.loading.get(id) === entry) cache.loading.delete(id)
      })
      .catch(() => {})
    return value
  }
}
