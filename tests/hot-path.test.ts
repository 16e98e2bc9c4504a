import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hotPathOf } from '../shared/infra/hot-path/hot-path.ts'
import { graceMs, LEASE_SPAN_MS, maxBlock } from '../shared/infra/hot-path/rate-leases.ts'
import { addMember, startTestPlatform, TestClock, type TestPlatform } from './support/platform.ts'

/**
 * The key-authenticated hot path across instances (docs/adr/0004-rate-limits-in-postgres.md):
 * two instances over one database, each with its own verified-key cache and rate-limit leases.
 * Revocation and the like reach the other instance within a second (a deadline on a loop of
 * requests, not a sleep); leases never admit more than the key's GCRA bucket.
 */

const clock = new TestClock()
let tp: TestPlatform
beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
})
afterAll(() => tp.close())

async function createKey(token: string, rate = 1000, scopes = ['content:read']) {
  const res = await tp.json('/api/api-keys', {
    token,
    body: { name: 'k', environment: 'production', scopes, rate_limit_per_minute: rate },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; key: string }
}

const statusOn = async (instance: number, token: string) =>
  (await tp.request('/v1/content', { token, instance }).then(async (r) => (await r.arrayBuffer(), r))).status

/** A request on instance 1 that the cache served (no lookup in the database). */
async function servedFromCache(token: string): Promise<void> {
  const cache = hotPathOf(tp.instances[1]!.platform.deps).cache
  // The first load may not be kept (the feed's first poll applied changes meanwhile), and entries
  // are served only while the feed is fresh: a few tries until one comes from memory.
  for (let attempt = 0; attempt < 20; attempt++) {
    const misses = cache.misses
    expect(await statusOn(1, token)).toBe(200)
    if (cache.misses === misses) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('never served from the cache')
}

/**
 * Sends requests to instance 1 until one gets `status`, and returns how long after `since`
 * (performance.now()) that was; fails if a second passes without it.
 */
async function refusedWithin(token: string, status: number, since: number): Promise<number> {
  for (;;) {
    const got = await statusOn(1, token)
    const elapsed = performance.now() - since
    if (got === status) return elapsed
    if (elapsed > 1000) throw new Error(`still ${got} after ${Math.round(elapsed)} ms`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('verified-key cache across instances', () => {
  it('refuses a key revoked on instance 0 on instance 1 within a second', async () => {
    const t = await tp.createTenant()
    const key = await createKey(t.token)
    await servedFromCache(key.key)
    const revoked = await tp.json(`/api/api-keys/${key.id}/revoke`, {
      method: 'POST',
      token: t.token,
      instance: 0,
    })
    expect(revoked.status).toBeLessThan(300)
    const delay = await refusedWithin(key.key, 401, performance.now())
    const notified = hotPathOf(tp.instances[1]!.platform.deps).follower.notifications
    console.info(
      `revocation reached the other instance after ${delay.toFixed(0)} ms (NOTIFYs seen: ${notified})`,
    )
  })

  it('drops a key on instance 1 within a second when its scopes change, it expires early, or its creator leaves', async () => {
    const t = await tp.createTenant()
    const scoped = await createKey(t.token)
    await servedFromCache(scoped.key)
    await tp.db.sql`update public.api_keys set scopes = '{content:write}' where id = ${scoped.id}`
    await refusedWithin(scoped.key, 403, performance.now())

    const expiring = await createKey(t.token)
    await servedFromCache(expiring.key)
    await tp.db.sql`update public.api_keys set expires_at = ${clock.now()} where id = ${expiring.id}`
    await refusedWithin(expiring.key, 401, performance.now())

    const admin = await addMember(tp, t.tenantId, 'admin')
    const leaving = await createKey(admin.token)
    await servedFromCache(leaving.key)
    await tp.db.sql`delete from public.tenant_members where user_id = ${admin.userId}`
    await refusedWithin(leaving.key, 401, performance.now())
  })

  it("drops a user's cached membership on instance 1 within a second when they leave", async () => {
    const t = await tp.createTenant()
    const member = await addMember(tp, t.tenantId, 'member')
    await servedFromCache(member.token)
    await tp.db.sql`delete from public.tenant_members where user_id = ${member.userId}`
    await refusedWithin(member.token, 403, performance.now())
  })

  it('turns a flood of one unknown key away from memory after the first lookup', async () => {
    const t = await tp.createTenant()
    const key = await createKey(t.token)
    await tp.json(`/api/api-keys/${key.id}/revoke`, { method: 'POST', token: t.token })
    const cache = hotPathOf(tp.instances[1]!.platform.deps).cache
    await cache.follower.poll() // the revocation's own feed row, applied before the flood
    await refusedWithin(key.key, 401, performance.now())
    const misses = cache.misses
    for (let i = 0; i < 5; i++) expect(await statusOn(1, key.key)).toBe(401)
    expect(cache.misses).toBe(misses)
  })
})

describe('verified-key cache loads', () => {
  it('sends one lookup for a burst of requests with a key this instance has not seen', async () => {
    const t = await tp.createTenant()
    const key = await createKey(t.token)
    const cache = hotPathOf(tp.instances[1]!.platform.deps).cache
    await cache.follower.poll() // whatever the key's creation put in the feed, applied before the burst
    const misses = cache.misses
    const statuses = await Promise.all(Array.from({ length: 20 }, () => statusOn(1, key.key)))
    expect(statuses).toEqual(Array(20).fill(200))
    expect(cache.misses - misses).toBe(1)
  })
})

describe('rate-limit leases', () => {
  it('never lets two instances hammering one key past its limit, and admits at least 90% of it', async () => {
    const t = await tp.createTenant()
    // Enterprise: no monthly quota to run into first.
    await tp.db.sql`update public.tenants set plan = 'enterprise' where id = ${t.tenantId}`
    const limit = 200
    const key = await createKey(t.token, limit)
    expect(maxBlock(limit)).toBeGreaterThan(1) // leases of several tokens, not one per request
    const step = 60_000 / limit
    let admitted = 0
    let refused = 0
    const started = clock.now().getTime()
    // 40 rounds of 20 concurrent requests on each instance, 0.75 s apart: 30 s in all.
    for (let round = 0; round < 40; round++) {
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => statusOn(i % 2, key.key)))
      admitted += statuses.filter((s) => s === 200).length
      refused += statuses.filter((s) => s === 429).length
      expect(admitted + refused).toBe((round + 1) * 40)
      // The GCRA bound after every round: the burst plus what the time so far earned back.
      const elapsed = clock.now().getTime() - started
      expect(admitted).toBeLessThanOrEqual(limit + Math.floor(elapsed / step))
      clock.advance(750)
    }
    const elapsed = clock.now().getTime() - 750 - started
    const bound = limit + Math.floor(elapsed / step)
    const leases = [0, 1].map((i) => hotPathOf(tp.instances[i]!.platform.deps).leases.stats)
    console.info(
      `admitted ${admitted} of a bound of ${bound} (${((100 * admitted) / bound).toFixed(1)}%); ` +
        `grace ${graceMs(limit)} ms; leases ${leases.map((s) => s.leases).join('+')}, ` +
        `stranded ${leases.map((s) => s.stranded).join('+')}`,
    )
    expect(admitted).toBeGreaterThanOrEqual(Math.ceil(0.9 * bound))
    expect(refused).toBeGreaterThan(0)
  })

  it('takes one token at a time for a slow key, and its headers and retryAfter stay exact', async () => {
    const t = await tp.createTenant()
    const key = await createKey(t.token, 1000)
    const leases = hotPathOf(tp.instances[0]!.platform.deps).leases
    const before = leases.stats.leases
    for (let i = 0; i < 3; i++) {
      clock.advance(30_000) // one request every 30 s: slower than a lease's span (LEASE_SPAN_MS)
      const res = await tp.request('/v1/content', { token: key.key })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000')
    }
    expect(leases.stats.leases - before).toBe(3)
    expect(leases.held(`key:${key.id}`)).toBe(0)
  })

  it("spaces a lease by the key's pace below its limit, so it lasts: one lease per span, nothing stranded", async () => {
    const t = await tp.createTenant()
    const key = await createKey(t.token, 1000)
    const leases = hotPathOf(tp.instances[0]!.platform.deps).leases
    const before = { ...leases.stats }
    // One request every 2 s for a minute: a thirtieth of 1000 a minute. Tokens one step (60 ms)
    // apart would expire about 3 requests into a block (a lease every 6 s); spaced by the pace,
    // a lease lasts LEASE_SPAN_MS (20 s).
    for (let i = 0; i < 30; i++) {
      clock.advance(2000)
      expect(await statusOn(0, key.key)).toBe(200)
    }
    const taken = leases.stats.leases - before.leases
    console.info(
      `30 requests 2 s apart: ${taken} leases, ${leases.stats.stranded - before.stranded} stranded`,
    )
    expect(taken).toBeLessThanOrEqual(2 + Math.ceil((30 * 2000) / LEASE_SPAN_MS))
    expect(leases.stats.stranded - before.stranded).toBe(0)
  })

  it('writes one row version a lease, and none for a lease that grants nothing', async () => {
    // pg_stat_xact_user_tables counts this transaction's row versions as they are written.
    const writesOf = await tp.db.sql.begin(async (tx) => {
      const written = async () => {
        const [row] = await tx<{ n: number }[]>`
          select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::int as n
          from pg_stat_xact_user_tables where schemaname = 'private' and relname = 'rate_limit_buckets'`
        return row!.n
      }
      const bucket = `test:${crypto.randomUUID()}`
      const lease = async (want: number) => {
        const before = await written()
        const [row] = await tx<{ granted: number }[]>`
          select granted from private.lease_rate_limit(${bucket}, 10, ${want}, '0 seconds'::interval, ${clock.now()})`
        return { granted: row!.granted, rows: (await written()) - before }
      }
      // A new bucket, the same bucket again, and the same bucket with its 10 tokens gone.
      return [await lease(4), await lease(6), await lease(1)]
    })
    expect(writesOf).toEqual([
      { granted: 4, rows: 1 },
      { granted: 6, rows: 1 },
      { granted: 0, rows: 0 },
    ])
  })
})

describe('last_used_at', () => {
  it("writes the first uses of several new keys in one statement, each key's time in it", async () => {
    const t = await tp.createTenant()
    const keys = await Promise.all(Array.from({ length: 5 }, () => createKey(t.token)))
    const lastUsed = hotPathOf(tp.instances[0]!.platform.deps).lastUsed
    await lastUsed.flush()
    const before = { ...lastUsed.stats }
    for (const key of keys) {
      clock.advance(1000)
      expect(await statusOn(0, key.key)).toBe(200)
    }
    await lastUsed.flush()
    expect(lastUsed.stats.keys - before.keys).toBe(5)
    // One statement, unless the flush timer fell between two of the requests.
    expect(lastUsed.stats.statements - before.statements).toBeLessThanOrEqual(2)
    const rows = await tp.db.sql<{ id: string; last_used_at: Date }[]>`
      select id, last_used_at from public.api_keys where id in ${tp.db.sql(keys.map((k) => k.id))}`
    const at = new Map(rows.map((r) => [r.id, r.last_used_at.getTime()]))
    const first = at.get(keys[0]!.id)!
    expect(keys.map((k) => at.get(k.id)! - first)).toEqual([0, 1000, 2000, 3000, 4000])
  })
})

describe('buffered metering', () => {
  const contentProduct = '0f3c6a52-6f0e-4c51-9a10-000000000001'
  const counted = async (tenantId: string) => {
    const [row] = await tp.db.sql<{ units: string }[]>`
      select units::text from public.usage_counters where tenant_id = ${tenantId} and product_id = ${contentProduct}`
    return row ? Number(row.units) : 0
  }

  it('never lets two instances past a Free quota, and reaches it exactly', async () => {
    const t = await tp.createTenant() // Free: 100 content requests a month
    const { key } = await createKey(t.token) // the Content API meters keyed requests
    await tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      values (${t.tenantId}, ${contentProduct}, date_trunc('month', ${clock.now()}::timestamptz)::date, 40)`
    let admitted = 0
    for (let wave = 0; wave < 4; wave++) {
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => statusOn(i % 2, key)))
      admitted += statuses.filter((s) => s === 200).length
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([])
      expect(40 + admitted).toBeLessThanOrEqual(100)
      expect(await counted(t.tenantId)).toBeLessThanOrEqual(100)
    }
    expect(admitted).toBe(60)
    expect(await counted(t.tenantId)).toBe(100)
  })

  it('loses at most the unflushed counts of an instance that is killed (runs last: it kills instance 1)', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
    const { key } = await createKey(t.token)
    const usage = hotPathOf(tp.instances[1]!.platform.deps).usage
    let admitted = 0
    for (let i = 0; i < 30; i++) if ((await statusOn(1, key)) === 200) admitted++
    await usage.flush()
    expect(await counted(t.tenantId)).toBe(admitted)
    for (let i = 0; i < 20; i++) if ((await statusOn(1, key)) === 200) admitted++
    expect(admitted).toBe(50)
    // The bound: what was counted in memory since the last flush (at most FLUSH_MS of traffic).
    const unflushed = usage.unflushed
    // Killed: its connections cut, nothing more written from it.
    await tp.instances[1]!.platform.deps.sql.end({ timeout: 0 })
    const lost = admitted - (await counted(t.tenantId))
    console.info(`killed with ${unflushed} unflushed counts; lost ${lost} of ${admitted}`)
    expect(lost).toBeGreaterThanOrEqual(0)
    expect(lost).toBeLessThanOrEqual(unflushed)
    expect(unflushed).toBeLessThanOrEqual(20)
  })
})
