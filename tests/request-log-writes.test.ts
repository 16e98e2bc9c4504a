// What 1,000 keyed reads make the database write, table by table, as PostgreSQL counts it
// (pg_stat_user_tables: rows inserted, updated and deleted), over two instances and 20 keys
// (docs/performance.md, "Rows written per 1,000 keyed reads"; docs/adr/0022-request-log-buffered.md).
// Besides the request log (a row per request, in batches) the budget is 20 row writes: leases,
// usage flushes (one table each since migration 20261207050100) and last_used_at.
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

const onPostgres = Boolean(process.env.DATABASE_URL)

/** Rows written per table so far; the request log's day partitions count as the log. */
async function rowsWritten(tp: TestPlatform): Promise<Map<string, number>> {
  const rows = await tp.db.sql<{ table: string; n: number }[]>`
    select case when relname like 'api_request_log%' then 'api_request_log' else relname end as table,
           sum(n_tup_ins + n_tup_upd + n_tup_del)::int as n
    from pg_stat_user_tables where schemaname in ('public', 'private')
    group by 1`
  return new Map(rows.map((r) => [r.table, r.n]))
}

/**
 * A backend reports its counts when it goes idle, at most once a second, and otherwise within
 * 10 s: read 11 s after the last write.
 */
async function settledRowsWritten(tp: TestPlatform): Promise<Map<string, number>> {
  await new Promise((r) => setTimeout(r, 11_000))
  return rowsWritten(tp)
}

describe.skipIf(!onPostgres)(
  'rows written per 1,000 keyed reads (PostgreSQL, two instances, 20 keys)',
  () => {
    let tp: TestPlatform
    beforeAll(async () => {
      tp = await startTestPlatform({ instances: 2 })
    })
    afterAll(() => tp?.close())

    it('writes at most 20 rows besides the request log, and a log row per request at most', async () => {
      const t = await tp.createTenant()
      // A paid plan: no hard cap, so metering counts in memory and flushes a counter a second.
      await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
      const keys: string[] = []
      for (let i = 0; i < 20; i++) {
        const res = await tp.json('/api/api-keys', {
          token: t.token,
          body: {
            name: `k${i}`,
            environment: 'production',
            scopes: ['content:read'],
            rate_limit_per_minute: 1000,
          },
        })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
        keys.push(res.body.key)
      }
      const read = async (n: number, clients: number) => {
        let sent = 0
        await Promise.all(
          Array.from({ length: clients }, async (_, client) => {
            for (let i = client; i < n; i += clients) {
              const res = await tp.request('/v1/content?limit=5', {
                token: keys[i % keys.length]!,
                instance: Math.floor(i / keys.length) % 2,
              })
              await res.arrayBuffer()
              expect(res.status).toBe(200)
              sent++
            }
          }),
        )
        return sent
      }
      const flushAll = async () => {
        for (const { platform } of tp.instances) {
          const hot = hotPathOf(platform.deps)
          await Promise.all([hot.usage.flush(), hot.lastUsed.flush(), hot.requestLog.flush()])
        }
      }
      // Warm: every key seen by both instances (its cache entry, its first lease, its first use).
      await read(200, 10)
      await flushAll()
      const before = await settledRowsWritten(tp)
      const sent = await read(1000, 10)
      await flushAll()
      const after = await settledRowsWritten(tp)

      const written = [...after].map(([table, n]) => [table, n - (before.get(table) ?? 0)] as const)
      const perTable = Object.fromEntries(written.filter(([, n]) => n > 0))
      const log = perTable.api_request_log ?? 0
      const besides = written.filter(([table]) => table !== 'api_request_log').reduce((s, [, n]) => s + n, 0)
      const leases = [0, 1].map((i) => hotPathOf(tp.instances[i]!.platform.deps).leases.stats)
      console.info(
        `${sent} keyed reads wrote ${JSON.stringify(perTable)}: ${besides} rows besides the log; ` +
          `leases ${leases.map((s) => s.leases).join('+')}, stranded ${leases.map((s) => s.stranded).join('+')}`,
      )
      expect(sent).toBe(1000)
      expect(log).toBeLessThanOrEqual(1000)
      expect(log).toBeGreaterThan(0)
      expect(besides).toBeLessThanOrEqual(20)
    }, 120_000)
  },
)
