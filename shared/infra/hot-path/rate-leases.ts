import type { Sql } from '../db.ts'
import type { RateLimitState } from '../http/app-env.ts'

/**
 * Rate limits spent from leases (docs/adr/0004-rate-limits-in-postgres.md). An instance takes a
 * block of tokens from a bucket's GCRA state in one statement (private.lease_rate_limit) and
 * spends them locally, so a busy key costs the database one write per block, not per request.
 *
 * Why this never admits more than one GCRA bucket would, on any number of instances: the lease
 * hands out distinct arrival slots (base + step, base + 2 step, ...), each no later than
 * now + period - grace. A token is spent at most `grace` after its slot, never later (an older one
 * is dropped as stranded). So every request admitted at time t holds a distinct slot in
 * [t - grace, t + period - grace]: in any span [a, b] at most (b - a + period) / step = limit +
 * what the span earns back, the bound of plain GCRA. The price is the burst: `grace` worth of
 * tokens (less than a tenth of the limit) is never available at once.
 *
 * Block size follows the bucket's recent arrival rate on this instance (so a slow key takes one
 * token at a time), at most maxBlock(limit); limits of 100 a minute or less take one token at a
 * time with no grace: exactly the per-request take of before. That keeps the tool server's
 * 100 requests a minute (the most a tool-server key or OAuth grant may have) an exact promise,
 * burst included; keys that slow cost the database little anyway.
 */

const PERIOD_MS = 60_000

/**
 * How long a lease is meant to last at the instance's own pace: its tokens are spaced by that
 * pace (at least a step), so a key used below its limit renews once per LEASE_SPAN_MS per instance
 * rather than every few seconds. The bucket time a lease takes (spacing * tokens) stays within it,
 * so an instance that goes idle strands at most a third of a minute's worth of the limit, which
 * only under-admits (migration 20261207050200).
 */
export const LEASE_SPAN_MS = PERIOD_MS / 3

/**
 * The largest lease for a limit: a tenth of it, one token for limits of 100 a minute or less. A
 * tenth keeps a busy key at one lease per 100 requests at 1000 a minute (10 writes per 1,000; a
 * twentieth makes it 20, the whole write budget in docs/performance.md), for a burst less than a tenth short
 * of the limit and at most a tenth of the limit stranded per instance when it goes idle.
 */
export function maxBlock(limit: number): number {
  return limit > 100 ? Math.floor(limit / 10) : 1
}

/** How late a token may be spent after its slot: what a full block takes to earn back. */
export function graceMs(limit: number): number {
  return ((maxBlock(limit) - 1) * PERIOD_MS) / limit
}

export interface LeaseDecision extends RateLimitState {
  allowed: boolean
  retryAfter: number
}

interface BucketState {
  limit: number
  /** The leased slots not yet spent: slot i is base + i * spacing, for next <= i <= last. */
  base: number
  spacing: number
  next: number
  last: number
  /** The bucket's TAT as the latest lease saw it. */
  tat: number
  /** No token can be had before this (injected clock): refusals need no database. */
  refusedUntil: number
  /** Smoothed time between this instance's requests (injected clock), for the block size. */
  gapMs: number
  lastAt: number
  pending: Promise<void> | null
  /** Requests of this instance waiting for a token of this bucket. */
  waiting: number
}

export class RateLeases {
  private readonly buckets = new Map<string, BucketState>()
  /** Leases taken (one database write each), tokens spent, and tokens that went unspent. */
  readonly stats = { leases: 0, spent: 0, stranded: 0 }

  constructor(private readonly sql: Sql) {}

  /** Takes one request from `bucket` (`limit` per minute) at `now`. */
  async take(bucket: string, limit: number, now: Date): Promise<LeaseDecision> {
    const at = now.getTime()
    let state = this.buckets.get(bucket)
    if (!state || state.limit !== limit) {
      if (state) this.strand(state)
      state = {
        limit,
        base: 0,
        spacing: PERIOD_MS / limit,
        next: 1,
        last: 0,
        tat: at,
        refusedUntil: 0,
        gapMs: Number.POSITIVE_INFINITY,
        lastAt: Number.NaN,
        pending: null,
        waiting: 0,
      }
      this.buckets.set(bucket, state)
      if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value!)
    }
    if (!Number.isNaN(state.lastAt)) {
      const gap = Math.max(0, at - state.lastAt)
      // A pause longer than a lease's span is idleness, not the key's pace: it would space the
      // next leases far wider than the requests that follow it.
      if (gap <= LEASE_SPAN_MS)
        state.gapMs = Number.isFinite(state.gapMs) ? state.gapMs * 0.8 + gap * 0.2 : gap
    }
    state.lastAt = at
    // (More than a period ahead: the clock went back; ask the database.)
    const refusedHere = () => state.refusedUntil > at && state.refusedUntil - at <= PERIOD_MS
    if (maxBlock(limit) === 1) {
      // One token per request, each its own statement (as many in flight as requests).
      if (refusedHere()) return this.refusal(state, at)
      const row = await this.leaseStatement(bucket, limit, 1, PERIOD_MS / limit, now)
      state.tat = Math.max(state.tat, row.tat.getTime())
      if (row.granted === 0) {
        state.refusedUntil = this.nextTokenAt(limit, row.base.getTime())
        return this.refusal(state, at)
      }
      this.stats.spent++
      return this.decision(state, at, 0, row.tat.getTime())
    }
    state.waiting++
    try {
      // Each turn spends a token, refuses (the bucket had none), or waits for a lease; a lease
      // that grants none sets refusedUntil, so this ends.
      for (;;) {
        const spent = this.spend(state, at)
        if (spent) return spent
        if (refusedHere()) return this.refusal(state, at)
        if (!state.pending) {
          state.pending = this.lease(bucket, state, now).finally(() => {
            state.pending = null
          })
        }
        await state.pending
      }
    } finally {
      state.waiting--
    }
  }

  /** Spends the earliest leased token still valid at `at`; drops the expired ones. */
  private spend(state: BucketState, at: number): LeaseDecision | null {
    const grace = graceMs(state.limit)
    while (state.next <= state.last) {
      const slot = state.base + state.next * state.spacing
      state.next++
      if (slot + grace < at) {
        this.stats.stranded++
        continue
      }
      this.stats.spent++
      return this.decision(state, at, state.last - state.next + 1, state.tat)
    }
    return null
  }

  private async leaseStatement(bucket: string, limit: number, want: number, spacingMs: number, now: Date) {
    const [row] = await this.sql<{ granted: number; base: Date; tat: Date; spacing_ms: number }[]>`
      select granted, base, tat, extract(epoch from spacing)::float8 * 1000 as spacing_ms
      from private.lease_rate_limit(${bucket}, ${limit}, ${want}, ${`${graceMs(limit)} milliseconds`}::interval,
        ${now}, ${`${spacingMs} milliseconds`}::interval)`
    this.stats.leases++
    return row!
  }

  /** When a bucket whose TAT is `base` admits its next token: base + step under now + period - grace. */
  private nextTokenAt(limit: number, base: number): number {
    return base + PERIOD_MS / limit - (PERIOD_MS - graceMs(limit))
  }

  private async lease(bucket: string, state: BucketState, now: Date): Promise<void> {
    // At least a token for every request waiting now, within the block's cap, spaced by this
    // instance's pace (the database narrows the spacing when the bucket has less room).
    const { tokens, spacingMs } = this.blockSize(state)
    const want = Math.min(maxBlock(state.limit), Math.max(tokens, state.waiting))
    // More requests waiting than the pace asked for: the lease still spans LEASE_SPAN_MS at most.
    const spacing = Math.max(PERIOD_MS / state.limit, Math.min(spacingMs, LEASE_SPAN_MS / want))
    const row = await this.leaseStatement(bucket, state.limit, want, spacing, now)
    this.strand(state)
    state.base = row.base.getTime()
    state.spacing = row.spacing_ms
    state.next = 1
    state.last = row.granted
    state.tat = row.tat.getTime()
    if (row.granted === 0) state.refusedUntil = this.nextTokenAt(state.limit, state.base)
  }

  private strand(state: BucketState): void {
    if (state.last >= state.next) this.stats.stranded += state.last - state.next + 1
    state.last = 0
    state.next = 1
  }

  /**
   * The next lease: its tokens spaced by this instance's recent pace (at least a step), as many as
   * that pace spends in LEASE_SPAN_MS, within the block's cap. A token's slot then passes about
   * when its request arrives (and it may be spent `grace` later still), so few go unspent.
   */
  private blockSize(state: BucketState): { tokens: number; spacingMs: number } {
    const step = PERIOD_MS / state.limit
    const cap = maxBlock(state.limit)
    if (cap === 1 || !Number.isFinite(state.gapMs)) return { tokens: 1, spacingMs: step }
    const spacingMs = Math.max(step, state.gapMs)
    return { tokens: Math.max(1, Math.min(cap, Math.floor(LEASE_SPAN_MS / spacingMs))), spacingMs }
  }

  /**
   * Headers after an admitted request: remaining is what this instance would admit right now (its
   * unspent tokens and what the bucket held at its last lease, less time's earnings elsewhere);
   * reset the seconds until the bucket is full again.
   */
  private decision(state: BucketState, at: number, held: number, tat: number): LeaseDecision {
    const step = PERIOD_MS / state.limit
    const inBucket = Math.floor((at + PERIOD_MS - graceMs(state.limit) - Math.max(tat, at)) / step + 1e-9)
    const remaining = Math.max(0, Math.min(state.limit, held + inBucket))
    const reset = Math.max(0, Math.ceil((tat - at) / 1000))
    return { limit: state.limit, remaining, reset, allowed: true, retryAfter: 0 }
  }

  private refusal(state: BucketState, at: number): LeaseDecision {
    const reset = Math.max(0, Math.ceil((state.tat - at) / 1000))
    const retryAfter = Math.max(1, Math.ceil((state.refusedUntil - at) / 1000))
    return { limit: state.limit, remaining: 0, reset, allowed: false, retryAfter }
  }

  /** Unspent tokens held now (for tests and the benchmark). */
  held(bucket: string): number {
    const state = this.buckets.get(bucket)
    return state ? Math.max(0, state.last - state.next + 1) : 0
  }
}
