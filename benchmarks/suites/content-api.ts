/**
 * GET /v1/content with a platform key against a bare route that runs the same query as the
 * database owner with no authentication, rate limit or RLS, both over HTTP on loopback against
 * the same pool, in the same run (docs/adr/0004-rate-limits-in-postgres.md).
 * Goals (issue 45): throughput at least 0.9 of the bare read in every case on PostgreSQL, 0.8 on
 * PGlite; backend CPU per keyed read at most 1.25 times the bare read's (PostgreSQL: read
 * from /proc/<pid>/stat of the pool's backends); at most 20 database writes per 1,000 keyed
 * requests (the request log's inserts included: one statement per flush, a row per request). The
 * two alternate in rounds; percentiles are the worse round's.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { paginate } from '@shared/infra/pagination.ts'
import { presentContent, queryContent } from '@shared/services/content/feed.ts'
import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { Hono } from 'hono'
import { createContentKey, seedContentTenant } from '../content-fixture.ts'
import {
  addTotals,
  backendCpuDuring,
  combineRounds,
  type Measurement,
  measure,
  printComparison,
  printStatementTotals,
  rowsWrittenSettled,
  type StatementTotals,
  statementsDuring,
} from '../lib.ts'

export default async function contentApiBenchmark(): Promise<void> {
  const clock = new TestClock()
  // Metering on, as in production: an Enterprise tenant's counts are buffered.
  const tp = await startTestPlatform({ clock, env: { METERING_ENABLED: 'true' } })
  const { tenant, key } = await seedContentTenant(tp, 'enterprise')
  const deps = tp.instances[0]!.platform.deps
  const onServer = Boolean(process.env.DATABASE_URL)

  const bare = new Hono().get('/bare', async (c) => {
    // The platform's own pool, so both sides have the same connections to work with; no claims:
    // the same function reads as the owner, past row-level security.
    const rows = await queryContent(deps.sql, null, tenant.tenantId, { limit: 20 })
    const page = paginate(rows, 20, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(presentContent), next_cursor: page.next_cursor })
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`

  const manyKeys = [
    key,
    ...(await Promise.all(Array.from({ length: 49 }, () => createContentKey(tp, tenant.token)))),
  ]
  const hot = hotPathOf(deps)
  const writesByKind = () => ({
    leases: hot.leases.stats.leases,
    flushes: hot.usage.stats.statements,
    lastUsed: hot.lastUsed.stats.statements,
    requestLog: hot.requestLog.stats.statements,
    stranded: hot.leases.stats.stranded,
  })
  const writes = () =>
    hot.leases.stats.leases +
    hot.usage.stats.statements +
    hot.lastUsed.stats.statements +
    hot.requestLog.stats.statements

  // Rows written as PostgreSQL counts them, settled between cases (the bare read writes none).
  let rowsAtCaseStart = onServer ? await rowsWrittenSettled(tp.db.sql) : 0
  for (const [concurrency, total, keys] of [
    [1, 2000, [key]],
    [50, 4000, [key]],
    [50, 4000, manyKeys],
  ] as const) {
    const using = keys.length === 1 ? 'one key' : `${keys.length} keys`
    // The clock moves with the requests, so that each key sends half its limit (1000 a minute),
    // as the earlier bench did (a minute per 500 calls): 120 ms per request of the key.
    let sent = 0
    const keyed = async () => {
      const current = keys[sent++ % keys.length]
      clock.advance(120 / keys.length)
      const res = await fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${current}` } })
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
    }
    const bareRead = async () => {
      const res = await fetch(bareUrl)
      if (res.status !== 200) throw new Error(`status ${res.status}`)
      await res.arrayBuffer()
    }
    const rounds = 4
    const each = { total: Math.ceil(total / rounds), concurrency }
    const subject: Measurement[] = []
    const baseline: Measurement[] = []
    const cpu = { subject: 0, baseline: 0 }
    const counts: Record<'subject' | 'baseline', StatementTotals | null> = { subject: null, baseline: null }
    // This process's CPU (server and the benchmark's client; the client's share is alike on both sides).
    const nodeCpu = { subject: 0, baseline: 0 }
    let keyedRequests = 0
    let keyedWrites = 0
    // Writes per 1,000 keyed requests of each round: the first holds each new key's start-up (its
    // first lease, of one token, and its first last_used_at), the later ones the steady state.
    const writesByRound: string[] = []
    const writesAtStart = writesByKind()
    const timed = async (side: 'subject' | 'baseline') => {
      const writesBefore = writes()
      const run = async () => {
        const nodeBefore = process.cpuUsage()
        const m =
          side === 'subject'
            ? await measure(`GET /v1/content, ${using}, ${concurrency} client(s)`, keyed, each)
            : await measure(`bare route, same query, ${concurrency} client(s)`, bareRead, each)
        const nodeUsed = process.cpuUsage(nodeBefore)
        nodeCpu[side] += (nodeUsed.user + nodeUsed.system) / 1e6
        return m
      }
      const {
        result: { result: m, seconds },
        totals,
      } = await statementsDuring(tp.db.sql, async () =>
        onServer ? await backendCpuDuring(tp.db.sql, run) : { result: await run(), seconds: 0 },
      )
      cpu[side] += seconds
      counts[side] = addTotals(counts[side], totals)
      if (side === 'subject') {
        // measure() runs a warm-up of 50 before the timed ones; both count.
        keyedRequests += m.count + Math.min(50, m.count)
        keyedWrites += writes() - writesBefore
        writesByRound.push(
          ((1000 * (writes() - writesBefore)) / (m.count + Math.min(50, m.count))).toFixed(1),
        )
        subject.push(m)
      } else baseline.push(m)
    }
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        await timed('subject')
        await timed('baseline')
      } else {
        await timed('baseline')
        await timed('subject')
      }
    }
    const s = combineRounds(subject[0]!.label, subject)
    const b = combineRounds(baseline[0]!.label, baseline)
    printComparison(
      `Content API at ${concurrency} client(s), ${using}: authenticated vs bare`,
      s,
      b,
      onServer ? 0.9 : 0.8,
    )
    {
      const perKeyed = (nodeCpu.subject / keyedRequests) * 1e6
      const perBare = (nodeCpu.baseline / keyedRequests) * 1e6
      console.log(
        `  Node CPU per read (server and client): keyed ${perKeyed.toFixed(0)} µs, bare ${perBare.toFixed(0)} µs, ratio ${(perKeyed / perBare).toFixed(2)}`,
      )
    }
    if (onServer) {
      // Per request sent, the warm-up ones included (both sides have as many).
      const perKeyed = (cpu.subject / keyedRequests) * 1e6
      const perBare = (cpu.baseline / keyedRequests) * 1e6
      console.log(
        `  backend CPU per read: keyed ${perKeyed.toFixed(0)} µs, bare ${perBare.toFixed(0)} µs, ratio ${(perKeyed / perBare).toFixed(2)} (goal <= 1.25)`,
      )
    }
    printStatementTotals(counts.subject, keyedRequests, counts.baseline, keyedRequests)
    const w = writesByKind()
    const per1000 = (n: number) => ((1000 * n) / keyedRequests).toFixed(1)
    console.log(
      `  database writes per 1,000 keyed requests: ${per1000(keyedWrites)} (goal <= 20): leases ${per1000(w.leases - writesAtStart.leases)}, usage flushes ${per1000(w.flushes - writesAtStart.flushes)}, last_used_at ${per1000(w.lastUsed - writesAtStart.lastUsed)}, request log ${per1000(w.requestLog - writesAtStart.requestLog)}; stranded tokens ${w.stranded - writesAtStart.stranded}`,
    )
    console.log(`  writes per 1,000 keyed requests by round: ${writesByRound.join(' / ')}`)
    if (onServer) {
      const rowsAtCaseEnd = await rowsWrittenSettled(tp.db.sql)
      console.log(
        `  rows written per 1,000 keyed requests as PostgreSQL counts them (pg_stat_database, every table): ${per1000(rowsAtCaseEnd - rowsAtCaseStart)}`,
      )
      rowsAtCaseStart = rowsAtCaseEnd
    }
  }
  const cache = hot.cache
  console.log(`  key cache: ${cache.keys.map.size} keys, ${cache.misses} lookups in the database in all`)
  server.close()
  await tp.close()
}
