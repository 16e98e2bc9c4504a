/**
 * This instance's recent answers to published-only keys (docs/adr/0028-published-read-cache.md).
 * What a published-only key reads is public by definition and the same for every such key of the
 * tenant (row-level security shows it the tenant's published rows, nothing that depends on the
 * key), so an answer read under RLS for one of them may answer the next for a short while:
 *
 * - an entry lives at most `ttlMs` of real time (CONTENT_READ_CACHE_MS, 1 s by default), so a
 *   change made through another instance shows within that bound (browsers and CDNs are told
 *   they may keep the answer far longer: Cache-Control public, max-age=60);
 * - a content write through this instance forgets its tenant's entries when it commits, so this
 *   instance never answers with what it has itself replaced;
 * - entries are keyed by tenant and the request's path and query, filled only from reads made
 *   with a published-only key's claims, and served only to published-only keys of that tenant;
 * - at most MAX_ENTRIES entries and MAX_BYTES of bodies; past either the oldest go first.
 *
 * The key's authentication, rate limit and metering happen before any of this: a cached answer is
 * still a counted, limited Content API request.
 */

/** Entries kept at most, over all tenants. */
const MAX_ENTRIES = 5_000
/** Bytes of answer bodies kept at most (UTF-16 length as a bound), over all tenants. */
const MAX_BYTES = 32 * 1024 * 1024

export interface PublishedAnswer {
  text: string
  etag: string
  /** A public feed's Last-Modified and Content-Type (functions/content/routes/feeds/serve.ts). */
  lastModified?: string
  contentType?: string
}

interface Entry extends PublishedAnswer {
  tenantId: string
  until: number
}

export class PublishedReadCache {
  private readonly entries = new Map<string, Entry>()
  /** Each tenant's entries, so that a write forgets them without a scan. */
  private readonly byTenant = new Map<string, Set<string>>()
  /** Per tenant, bumped by every write: a read that began before it must not be stored after it. */
  private readonly generations = new Map<string, number>()
  private bytes = 0
  hits = 0
  misses = 0

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0
  }

  /** The tenant's write generation now: pass it to set() with the answer read after this. */
  generation(tenantId: string): number {
    return this.generations.get(tenantId) ?? 0
  }

  get(tenantId: string, request: string): PublishedAnswer | undefined {
    if (!this.enabled) return undefined
    const key = `${tenantId}\n${request}`
    const entry = this.entries.get(key)
    if (!entry || entry.until <= this.now()) {
      if (entry) this.drop(key)
      this.misses++
      return undefined
    }
    this.hits++
    return entry
  }

  /** Keeps an answer read when the tenant's generation was `generation` (skipped if a write came since). */
  set(tenantId: string, request: string, answer: PublishedAnswer, generation: number): void {
    if (!this.enabled || generation !== this.generation(tenantId)) return
    if (answer.text.length > MAX_BYTES / 16) return
    const key = `${tenantId}\n${request}`
    this.drop(key)
    this.entries.set(key, { ...answer, tenantId, until: this.now() + this.ttlMs })
    this.bytes += answer.text.length
    const keys = this.byTenant.get(tenantId) ?? new Set<string>()
    this.byTenant.set(tenantId, keys)
    keys.add(key)
    // Map keeps insertion order: the first entries are the oldest.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break
      this.drop(oldest)
    }
  }

  /** After a content write of the tenant committed on this instance. */
  forgetTenant(tenantId: string): void {
    this.generations.set(tenantId, this.generation(tenantId) + 1)
    for (const key of this.byTenant.get(tenantId) ?? []) this.drop(key)
    this.byTenant.delete(tenantId)
  }

  get size(): number {
    return this.entries.size
  }

  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.bytes -= entry.text.length
    this.byTenant.get(entry.tenantId)?.delete(key)
  }
}
