// The tenant's request log (docs/request-log.md): what a key or a signed-in member did, written by
// each instance's buffer within the flush bound, read through the API under row-level security,
// and pruned by the prune-retention job.
import { withTenant } from '@shared/infra/db.ts'
import { FLUSH_MS } from '@shared/infra/hot-path/batch-flusher.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { REFUSAL_WINDOW_MS } from '@shared/infra/hot-path/request-log.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(() => tp?.close())

async function createKey(token: string, body: Record<string, unknown> = {}) {
  const res = await tp.json('/api/api-keys', {
    token,
    body: {
      name: 'logged',
      environment: 'production',
      scopes: ['content:read'],
      rate_limit_per_minute: 1000,
      ...body,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; key: string }
}

/** Waits (at most twice the flush bound) until the log accounts for `n` requests of the key. */
async function flushed(keyId: string, n: number): Promise<void> {
  const deadline = performance.now() + 2 * FLUSH_MS
  for (;;) {
    const [row] = await tp.db.sql<{ n: number }[]>`
      select coalesce(sum(requests), 0)::int as n from public.api_request_log where key_id = ${keyId}`
    if (row!.n >= n) return
    if (performance.now() > deadline) throw new Error(`${row!.n} of ${n} requests after ${2 * FLUSH_MS} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * Writes the counts of this minute's refusals now, as the flush after the minute would (the
 * first refusal of a key's minute is written at once; the rest of its count when the minute ends).
 */
const closeRefusalWindows = () =>
  hotPathOf(tp.instances[0]!.platform.deps).requestLog.flush(Date.now() + REFUSAL_WINDOW_MS)

const log = (token: string, query = '') => tp.json(`/api/request-log${query}`, { token })

describe('request log', () => {
  it('records a keyed request within the flush bound: status, key, latency, rate limit and quota', async () => {
    const k = await createKey(a.token)
    const res = await tp.request('/v1/content?limit=1', { token: k.key })
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    await flushed(k.id, 1)
    const page = await log(a.token, `?key_id=${k.id}`)
    expect(page.status).toBe(200)
    expect(page.body.data).toHaveLength(1)
    const [entry] = page.body.data
    expect(entry).toMatchObject({
      request_id: res.headers.get('x-request-id'),
      method: 'GET',
      path: '/v1/content',
      status: 200,
      key_id: k.id,
      key_name: 'logged',
      user_id: a.userId,
      rate_limit: 'allowed',
      rate_remaining: Number(res.headers.get('x-ratelimit-remaining')),
      quota: 'counted',
    })
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0)
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000)
  })

  it('records a 429 over the rate limit as limited and one past the quota as exceeded', async () => {
    const k = await createKey(a.token, { rate_limit_per_minute: 1 })
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const r = await tp.request('/v1/content', { token: k.key })
      await r.arrayBuffer()
      statuses.push(r.status)
    }
    expect(statuses).toContain(429)
    await closeRefusalWindows()
    await flushed(k.id, 3)
    const limited = await log(a.token, `?key_id=${k.id}&status=429`)
    const refusedCount = limited.body.data.reduce((n: number, e: { requests: number }) => n + e.requests, 0)
    expect(refusedCount).toBe(statuses.filter((s) => s === 429).length)
    for (const e of limited.body.data) expect([e.rate_limit, e.quota]).toEqual(['limited', null])

    // Free plan: the Content API quota used up.
    const q = await createKey(a.token)
    await tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      values (${a.tenantId}, '0f3c6a52-6f0e-4c51-9a10-000000000001', date_trunc('month', now())::date, 100)
      on conflict (tenant_id, product_id, period) do update set units = 100`
    const refused = await tp.json('/v1/content', { token: q.key })
    expect([refused.status, refused.body.code]).toEqual([429, 'QUOTA_EXCEEDED'])
    await flushed(q.id, 1)
    const exceeded = await log(a.token, `?key_id=${q.id}`)
    expect(exceeded.body.data[0]).toMatchObject({ status: 429, rate_limit: 'allowed', quota: 'exceeded' })
    await tp.db.sql`delete from public.usage_counters where tenant_id = ${a.tenantId}`
  })

  it('counts refusals over the rate limit per key and minute: 400 requests at 1 a minute write a bounded number of rows, and the count shows', async () => {
    const k = await createKey(a.token, { rate_limit_per_minute: 1 })
    const statuses: number[] = []
    for (let wave = 0; wave < 20; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          tp.request('/v1/content', { token: k.key }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      )
      statuses.push(...answers)
    }
    const refusals = statuses.filter((s) => s === 429).length
    expect(refusals).toBeGreaterThanOrEqual(398)
    // The first refusal of the minute is in the log within the flush bound, before the minute ends.
    await flushed(k.id, 2)
    const early = await log(a.token, `?key_id=${k.id}&status=429`)
    expect(early.body.data.length).toBeGreaterThanOrEqual(1)
    expect(early.body.data[0]).toMatchObject({ status: 429, rate_limit: 'limited', key_id: k.id })

    await closeRefusalWindows()
    await flushed(k.id, 400)
    const [rows] = await tp.db.sql<{ n: number; requests: number }[]>`
      select count(*)::int as n, sum(requests)::int as requests from public.api_request_log where key_id = ${k.id}`
    // The admitted requests, and per minute the refusals crossed (the waves may span two): at most
    // two rows each (the first refusal, then the minute's count).
    const admitted = 400 - refusals
    console.info(`400 requests at 1 a minute: ${refusals} refused, ${rows!.n} rows written`)
    expect(rows!.requests).toBe(400)
    expect(rows!.n).toBeLessThanOrEqual(admitted + 4)

    // What the dashboard reads: the log's rows with their counts, and the key's hours.
    const page = await log(a.token, `?key_id=${k.id}&status=429`)
    const shown = page.body.data.reduce((n: number, e: { requests: number }) => n + e.requests, 0)
    expect(shown).toBe(refusals)
    const key = await tp.json(`/api/api-keys/${k.id}/requests`, { token: a.token })
    const hours = key.body.hours as { requests: number; rate_limited: number }[]
    expect(hours.reduce((n, h) => n + h.rate_limited, 0)).toBe(refusals)
    expect(hours.reduce((n, h) => n + h.requests, 0)).toBe(400)
  })

  it('filters by key, status (exact or class) and path prefix, newest first, page by page', async () => {
    const k1 = await createKey(a.token)
    const k2 = await createKey(a.token)
    const missing = '00000000-0000-4000-8000-000000000000'
    for (const path of ['/v1/content', `/v1/content/sites/${missing}`, '/v1/content?limit=2'])
      await (await tp.request(path, { token: k1.key })).arrayBuffer()
    await (await tp.request('/v1/content', { token: k2.key })).arrayBuffer()
    await flushed(k1.id, 3)
    await flushed(k2.id, 1)

    const byKey = await log(a.token, `?key_id=${k1.id}`)
    expect(byKey.body.data.map((e: { status: number }) => e.status)).toEqual([200, 404, 200])
    expect((await log(a.token, `?key_id=${k2.id}`)).body.data).toHaveLength(1)
    const notFound = await log(a.token, `?key_id=${k1.id}&status=404`)
    expect(notFound.body.data.map((e: { path: string }) => e.path)).toEqual([`/v1/content/sites/${missing}`])
    expect((await log(a.token, `?key_id=${k1.id}&status=4xx`)).body.data).toHaveLength(1)
    expect((await log(a.token, `?key_id=${k1.id}&status=2xx`)).body.data).toHaveLength(2)
    const sites = await log(a.token, `?key_id=${k1.id}&path=/v1/content/sites`)
    expect(sites.body.data).toHaveLength(1)
    // LIKE's wildcards match themselves only.
    expect((await log(a.token, `?key_id=${k1.id}&path=/v1/content/s_tes`)).body.data).toHaveLength(0)

    const first = await log(a.token, `?key_id=${k1.id}&limit=2`)
    expect(first.body.data).toHaveLength(2)
    const second = await log(a.token, `?key_id=${k1.id}&limit=2&cursor=${first.body.next_cursor}`)
    expect(second.body.data).toHaveLength(1)
    expect(second.body.next_cursor).toBeNull()
    expect([...first.body.data, ...second.body.data]).toEqual(byKey.body.data)
  })

  it("never shows another tenant's requests", async () => {
    const k = await createKey(a.token)
    await (await tp.request('/v1/content', { token: k.key })).arrayBuffer()
    await flushed(k.id, 1)
    const other = await log(b.token, `?key_id=${k.id}`)
    expect(other.status).toBe(200)
    expect(other.body.data).toEqual([])
    const all = await log(b.token, '?limit=100')
    expect(all.body.data.every((e: { key_id: string | null }) => e.key_id !== k.id)).toBe(true)
    expect((await tp.json(`/api/api-keys/${k.id}/requests`, { token: b.token })).status).toBe(404)
    // And the database says so too: as tenant B, row-level security hides tenant A's rows.
    const claims = { sub: b.userId, role: 'authenticated' as const, app_metadata: { tenant_id: b.tenantId } }
    const seen = await withTenant(
      tp.db.sql,
      claims,
      (tx) =>
        tx<
          { n: number }[]
        >`select count(*)::int as n from public.api_request_log where tenant_id = ${a.tenantId}`,
    )
    expect(seen[0]!.n).toBe(0)
  })

  it('shows owners and admins every request, a member only their own', async () => {
    const admin = await addMember(tp, a.tenantId, 'admin')
    const member = await addMember(tp, a.tenantId, 'member')
    const k = await createKey(a.token)
    await (await tp.request('/v1/content', { token: k.key })).arrayBuffer()
    const mine = await tp.request('/v1/content', { token: member.token })
    await mine.arrayBuffer()
    const memberRequest = mine.headers.get('x-request-id')
    await flushed(k.id, 1)
    const deadline = performance.now() + 2 * FLUSH_MS
    while (
      (await tp.db.sql`select 1 from public.api_request_log where request_id = ${memberRequest}`).length === 0
    ) {
      if (performance.now() > deadline) throw new Error('the member request was never written')
      await new Promise((r) => setTimeout(r, 25))
    }

    const seenBy = async (who: TestTenant) =>
      (await log(who.token, '?limit=100')).body.data as {
        key_id: string | null
        request_id: string
        user_id: string
      }[]
    const byMember = await seenBy(member)
    expect(byMember.some((e) => e.request_id === memberRequest)).toBe(true)
    expect(byMember.every((e) => e.user_id === member.userId)).toBe(true)
    expect((await log(member.token, `?key_id=${k.id}`)).body.data).toEqual([])
    // The key's page: the key exists for the member, its requests are the owner's.
    const keyPage = await tp.json(`/api/api-keys/${k.id}/requests`, { token: member.token })
    expect(keyPage.status).toBe(200)
    expect(keyPage.body.recent).toEqual([])

    for (const who of [admin, a]) {
      const all = await seenBy(who)
      expect(all.some((e) => e.request_id === memberRequest)).toBe(true)
      expect(all.some((e) => e.key_id === k.id)).toBe(true)
    }
    // Each entry names its member, not only an id: the signed-in member, and the key's creator.
    const all = (await log(a.token, '?limit=100')).body.data as {
      key_id: string | null
      request_id: string
      user_name: string | null
    }[]
    expect(all.find((e) => e.request_id === memberRequest)?.user_name).toBe(member.email.split('@')[0])
    expect(all.find((e) => e.key_id === k.id)?.user_name).toBe(a.email.split('@')[0])
  })

  it("gives a key's page its latest requests and the last 24 hours by the hour", async () => {
    const k = await createKey(a.token, { rate_limit_per_minute: 2 })
    for (let i = 0; i < 4; i++) await (await tp.request('/v1/content', { token: k.key })).arrayBuffer()
    await closeRefusalWindows()
    await flushed(k.id, 4)
    // A request from yesterday, in the chart's first hour, and one from two days ago, outside it.
    await tp.db.sql`
      insert into public.api_request_log (tenant_id, at, request_id, method, path, status, key_id, user_id, latency_ms)
      values (${a.tenantId}, date_trunc('hour', now()) - interval '23 hours', 'req-old-1', 'GET', '/v1/content', 500, ${k.id}, ${a.userId}, 3),
             (${a.tenantId}, now() - interval '2 days', 'req-old-2', 'GET', '/v1/content', 200, ${k.id}, ${a.userId}, 3)`
    const page = await tp.json(`/api/api-keys/${k.id}/requests`, { token: a.token })
    expect(page.status).toBe(200)
    // Six requests; the two refusals may share a row (counted per key and minute).
    expect(page.body.recent.reduce((n: number, e: { requests: number }) => n + e.requests, 0)).toBe(6)
    expect(page.body.recent[0].status).toBe(429)
    const hours = page.body.hours as {
      hour: string
      requests: number
      errors: number
      rate_limited: number
    }[]
    expect(hours).toHaveLength(24)
    expect(Date.parse(hours[23]!.hour)).toBe(Math.floor(Date.now() / 3_600_000) * 3_600_000)
    expect(hours[23]).toMatchObject({ requests: 4, errors: 2, rate_limited: 2 })
    expect(hours[0]).toMatchObject({ requests: 1, errors: 1, rate_limited: 0 })
    expect(hours.reduce((n, h) => n + h.requests, 0)).toBe(5)
    expect(
      (await tp.json('/api/api-keys/00000000-0000-4000-8000-000000000000/requests', { token: a.token }))
        .status,
    ).toBe(404)
  })

  it('refuses bad filters with 400 VALIDATION_ERROR naming the field', async () => {
    for (const [query, field] of [
      ['?status=abc', 'status'],
      ['?status=600', 'status'],
      ['?key_id=not-a-uuid', 'key_id'],
      ['?path=v1/content', 'path'],
      [`?path=/${'x'.repeat(600)}`, 'path'],
      ['?limit=1000', 'limit'],
      ['?cursor=nonsense', 'cursor'],
      ['?stauts=200', 'stauts'],
    ] as const) {
      const res = await log(a.token, query)
      expect(res.status, query).toBe(400)
      expect(res.body.code, query).toBe('VALIDATION_ERROR')
      expect(typeof res.body.message).toBe('string')
      expect(JSON.stringify(res.body.details), query).toContain(field)
    }
  })

  it('is pruned by the prune-retention job past REQUEST_LOG_RETENTION_DAYS (30)', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`
      insert into public.api_request_log (tenant_id, at, request_id, method, path, status, user_id, latency_ms)
      values (${t.tenantId}, now() - interval '31 days', 'req-31', 'GET', '/v1/content', 200, ${t.userId}, 1),
             (${t.tenantId}, now() - interval '29 days', 'req-29', 'GET', '/v1/content', 200, ${t.userId}, 1)`
    const res = await tp.instances[0]!.platform.runJob('tenants/jobs/prune-retention')
    expect(res.status).toBe(200)
    const left = await tp.db.sql<{ request_id: string }[]>`
      select request_id from public.api_request_log where tenant_id = ${t.tenantId} order by at`
    expect(left.map((r) => r.request_id)).toEqual(['req-29'])
  })

  it('keeps a partition per day: the job makes the next days ahead and drops a day once all of it is past retention', async () => {
    const t = await tp.createTenant()
    const partitionOf = async (at: string) => {
      const [row] = await tp.db.sql<{ part: string | null }[]>`
        select to_regclass('private.api_request_log_' || to_char((${at}::timestamptz at time zone 'UTC')::date, 'YYYYMMDD'))::text as part`
      return row!.part
    }
    // A day 40 days ago with a partition of its own (as the job made it then), and a row in it.
    await tp.db.sql`select private.ensure_request_log_partitions(now() - interval '40 days', 0)`
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString()
    expect(await partitionOf(old)).not.toBeNull()
    await tp.db.sql`
      insert into public.api_request_log (tenant_id, at, request_id, method, path, status, user_id, latency_ms)
      values (${t.tenantId}, ${old}, 'req-40', 'GET', '/v1/content', 200, ${t.userId}, 1)`
    const res = await tp.instances[0]!.platform.runJob('tenants/jobs/prune-retention')
    expect(res.status).toBe(200)
    // Dropped with its row; today and the next 7 days have theirs (made ahead of the writes).
    expect(await partitionOf(old)).toBeNull()
    const left = await tp.db.sql`select 1 from public.api_request_log where request_id = 'req-40'`
    expect(left).toHaveLength(0)
    for (let day = 1; day <= 7; day++)
      expect(await partitionOf(new Date(Date.now() + day * 86_400_000).toISOString())).not.toBeNull()
    // A row written tomorrow lands in tomorrow's partition, not the default one.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    await tp.db.sql`
      insert into public.api_request_log (tenant_id, at, request_id, method, path, status, user_id, latency_ms)
      values (${t.tenantId}, ${tomorrow}, 'req-tomorrow', 'GET', '/v1/content', 200, ${t.userId}, 1)`
    const [where] = await tp.db.sql<{ part: string }[]>`
      select tableoid::regclass::text as part from public.api_request_log where request_id = 'req-tomorrow'`
    expect(where!.part).toBe((await partitionOf(tomorrow))!)
    await tp.db.sql`delete from public.api_request_log where request_id = 'req-tomorrow'`
  })

  it('loses at most the rows buffered since the last flush when its instance is killed (runs last: it kills it)', async () => {
    const k = await createKey(a.token)
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) await (await tp.request('/v1/content', { token: k.key })).arrayBuffer()
    }
    const buffer = hotPathOf(tp.instances[0]!.platform.deps).requestLog
    await send(10)
    await buffer.flush()
    const written = async () =>
      (
        await tp.db.sql<
          { n: number }[]
        >`select count(*)::int as n from public.api_request_log where key_id = ${k.id}`
      )[0]!.n
    expect(await written()).toBe(10)
    await send(10)
    // The bound: the rows answered since the last flush (at most FLUSH_MS of traffic).
    const unflushed = buffer.unflushed
    await tp.instances[0]!.platform.deps.sql.end({ timeout: 0 })
    const lost = 20 - (await written())
    console.info(`killed with ${unflushed} unflushed request log rows; lost ${lost} of 20`)
    expect(lost).toBeGreaterThanOrEqual(0)
    expect(lost).toBeLessThanOrEqual(unflushed)
  })
})
