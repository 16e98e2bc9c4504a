// Speed guards that need no quiet machine (docs/performance.md, "Budgets"): counts, not timings.
// A few hundred keyed reads of each hot route, then pg_stat_statements (with track_planning and
// track = all, as CI's server loads it: .ci/run) says how often each statement was planned, how many
// statements a request sent, and pg_stat_database how many rows the reads wrote. A statement planned
// on every call (a plpgsql statement that never settles on its cached generic plan, as the feed's did
// from 20261201040400) costs the database 170-300 µs per request, which no CI stopwatch would see.
//
// PostgreSQL only, with the extension loaded: the embedded database has no pg_stat_statements.
import type { Sql } from '@shared/infra/db.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HOT_STATEMENT_MAX_PLANNED_SHARE,
  KEYED_READ_STATEMENT_BUDGET,
  ROWS_WRITTEN_PER_1000_KEYED_READS_BUDGET,
  ROWS_WRITTEN_PER_NEW_KEY_BUDGET,
  TOOL_SERVER_READ_STATEMENT_BUDGET,
} from './support/budgets.ts'
import { onPostgres } from './support/concurrency.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

/** Reads per route per measurement: enough that each pooled connection's first plans are a small share. */
const READS = 300
/** A statement run on at least this share of the requests is a hot one. */
const HOT_SHARE = 0.5

let tp: TestPlatform
let tenant: TestTenant
let regularKey: string
let publishedOnlyKey: string
let toolKey: string
let siteId: string
let slug: string
const clock = new TestClock()

const statementsLoaded = onPostgres ? await pgStatStatementsLoaded() : false

async function pgStatStatementsLoaded(): Promise<boolean> {
  const { default: postgres } = await import('postgres')
  const url = process.env.DATABASE_URL ?? process.env.SHARED_TEST_DATABASE_URL!
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<{ loaded: boolean; planning: string | null; track: string | null }[]>`
      select 'pg_stat_statements' = any (string_to_array(replace(current_setting('shared_preload_libraries'), ' ', ''), ',')) as loaded,
             current_setting('pg_stat_statements.track_planning', true) as planning,
             current_setting('pg_stat_statements.track', true) as track`
    return Boolean(row?.loaded && row.planning === 'on' && row.track === 'all')
  } finally {
    await sql.end()
  }
}

// On PostgreSQL in CI the guard must run: there a missing extension fails the test, not skips it.
const skipReason = !onPostgres
  ? 'PostgreSQL only: the embedded database has no pg_stat_statements (CI runs this file again with DATABASE_URL)'
  : !statementsLoaded && !process.env.CI
    ? 'needs pg_stat_statements in shared_preload_libraries with track_planning = on and track = all (.ci/run sets them)'
    : null
const missingInCi = onPostgres && !statementsLoaded && Boolean(process.env.CI)
const guard = skipReason ? describe.skip : describe

interface StatementCounts {
  queryid: string
  toplevel: boolean
  query: string
  calls: number
  plans: number
  rows: number
  plan_us: number
  exec_us: number
}

async function statements(sql: Sql): Promise<StatementCounts[]> {
  return sql<StatementCounts[]>`
    select queryid::text, toplevel, query, calls::int, plans::int, rows::int,
      (1000 * total_plan_time / greatest(calls, 1))::float8 as plan_us, (1000 * total_exec_time / greatest(calls, 1))::float8 as exec_us
    from public.pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())`
}

async function resetStatements(sql: Sql): Promise<void> {
  await sql`select public.pg_stat_statements_reset(0, (select oid from pg_database where datname = current_database()), 0)`
}

/**
 * A statement that writes rows: an insert, update, delete or merge, or a select whose common table
 * expression writes (private.record_usage's upsert returns the counter it wrote). Its `rows` are
 * the rows it wrote (for the latter, the rows it returned: one per row written).
 */
const writeStatement =
  /^\s*(insert|update|delete|merge)\b|^\s*with\b[\s\S]*\b(insert\s+into|update\s+[\w.]+\s+(as\s+\w+\s+)?set|delete\s+from)\b/i

interface RouteRun {
  name: string
  /** The bench clock's step per request: half the key's limit a minute. */
  stepMs: number
  /** Statements a read may send, on average (tests/support/budgets.ts). */
  statementBudget: number
  request: () => Promise<Response>
}

/** `count` reads, 10 at a time; every answer must be a 200. */
async function send(route: RouteRun, count: number): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        next++
        clock.advance(route.stepMs)
        const res = await route.request()
        const text = await res.text()
        if (res.status !== 200) throw new Error(`${route.name}: ${res.status} ${text}`)
      }
    }),
  )
}

/** What `count` reads of the route cost in statements and plans, after a warm-up of its own. */
async function measureRoute(route: RouteRun) {
  await send(route, 60)
  await resetStatements(tp.db.sql)
  await send(route, READS)
  const rows = (await statements(tp.db.sql)).filter((s) => !/pg_stat_statements/.test(s.query))
  return rows
}

beforeAll(async () => {
  if (skipReason || missingInCi) return
  tp = await startTestPlatform({ clock, env: { METERING_ENABLED: 'true' } })
  await tp.db.sql`create extension if not exists pg_stat_statements with schema public`
  tenant = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'enterprise' where id = ${tenant.tenantId}`
  const [site] = await tp.db.sql<{ id: string }[]>`
    insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Budget site') returning id`
  siteId = site!.id
  await tp.db.sql`
    insert into public.articles (tenant_id, site_id, title, body, status, published_at)
    select ${tenant.tenantId}, ${siteId}, 'Article ' || g, '# Heading ' || g || E'\n\nSome *text* here.', 'published', now()
    from generate_series(1, 60) g`
  // Tags on every article: the by-slug read gathers them under the published-only policies (one of
  // which, a SQL function, was planned on every call until 20261207040000).
  await tp.db.sql`
    with tag as (insert into public.tags (tenant_id, name, slug) values (${tenant.tenantId}, 'Budget', 'budget') returning id)
    insert into public.article_tags (tenant_id, article_id, tag_id, position)
    select a.tenant_id, a.id, tag.id, 0 from public.articles a, tag where a.tenant_id = ${tenant.tenantId}`
  await tp.db.sql`analyze public.sites, public.articles, public.tags, public.article_tags`
  const [first] = await tp.db.sql<{ slug: string }[]>`
    select slug from public.articles where tenant_id = ${tenant.tenantId} order by created_at limit 1`
  slug = first!.slug
  const key = async (body: Record<string, unknown>) => {
    const res = await tp.json('/api/api-keys', {
      token: tenant.token,
      body: {
        name: 'budget',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 1000,
        ...body,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.key as string
  }
  regularKey = await key({})
  publishedOnlyKey = await key({ published_only: true })
  toolKey = await key({ kind: 'tool_server', rate_limit_per_minute: 100 })
})
afterAll(() => tp?.close())

const routes = (): RouteRun[] => [
  {
    name: 'GET /v1/content',
    stepMs: 120,
    statementBudget: KEYED_READ_STATEMENT_BUDGET,
    request: () => fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${regularKey}` } }),
  },
  {
    name: 'GET /v1/content/sites/{site_id}/articles/{slug} (regular key)',
    stepMs: 120,
    statementBudget: KEYED_READ_STATEMENT_BUDGET,
    request: () =>
      fetch(`${tp.baseUrl}/v1/content/sites/${siteId}/articles/${slug}`, {
        headers: { authorization: `Bearer ${regularKey}` },
      }),
  },
  {
    // Answered from the instance's recent read for up to CONTENT_READ_CACHE_MS (ADR 0028).
    name: 'GET /v1/content/sites/{site_id}/articles/{slug} (published-only key)',
    stepMs: 120,
    statementBudget: KEYED_READ_STATEMENT_BUDGET,
    request: () =>
      fetch(`${tp.baseUrl}/v1/content/sites/${siteId}/articles/${slug}`, {
        headers: { authorization: `Bearer ${publishedOnlyKey}` },
      }),
  },
  {
    name: 'tool server platform:list_content',
    stepMs: 1200,
    statementBudget: TOOL_SERVER_READ_STATEMENT_BUDGET,
    request: () =>
      fetch(`${tp.baseUrl}/mcp/tools/execute`, {
        method: 'POST',
        headers: { 'x-api-key': toolKey, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'platform:list_content', params: {} }),
      }),
  },
]

guard(`hot-path budgets (pg_stat_statements)${skipReason ? `: skipped: ${skipReason}` : ''}`, () => {
  it('plans no hot statement on more than a small share of its calls, and sends no more statements per keyed read than its budget', async () => {
    if (missingInCi)
      throw new Error(
        'CI must run this guard: load pg_stat_statements with track_planning = on and track = all (.ci/run)',
      )
    const report: string[] = []
    const failures: string[] = []
    for (const route of routes()) {
      const rows = await measureRoute(route)
      const hot = rows.filter((s) => s.calls >= READS * HOT_SHARE)
      for (const s of hot) {
        const share = s.plans / s.calls
        const line = `${route.name}: ${s.toplevel ? 'top' : 'nested'} ${s.calls} calls, ${s.plans} plans, ${s.plan_us.toFixed(0)} µs planning + ${s.exec_us.toFixed(0)} µs executing a call: ${s.query.replace(/\s+/g, ' ').slice(0, 120)}`
        report.push(line)
        if (share > HOT_STATEMENT_MAX_PLANNED_SHARE)
          failures.push(`planned on ${(100 * share).toFixed(0)}% of calls: ${line}`)
      }
      // Statements the request sent itself (top level): background flushes included, as they are its cost.
      const sent = rows.filter((s) => s.toplevel).reduce((n, s) => n + s.calls, 0) / READS
      report.push(`${route.name}: ${sent.toFixed(2)} statements sent per read`)
      if (sent > route.statementBudget)
        failures.push(
          `${route.name}: ${sent.toFixed(2)} statements per keyed read (budget ${route.statementBudget})`,
        )
    }
    console.log(report.join('\n'))
    expect(failures, report.join('\n')).toEqual([])
  })

  it('writes no more rows per 1,000 keyed reads than its budget, besides the request log', async () => {
    if (missingInCi)
      throw new Error(
        'CI must run this guard: load pg_stat_statements with track_planning = on and track = all (.ci/run)',
      )
    const hot = hotPathOf(tp.instances[0]!.platform.deps)
    // Fresh keys. A key's first use writes twice, once in its life (its rate-limit bucket and its
    // first last_used_at): counted apart, against a budget per new key, so the per-read budget below
    // measures the steady state whatever the number of keys the test happens to use.
    const keys = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await tp.json('/api/api-keys', {
          token: tenant.token,
          body: {
            name: 'writes',
            environment: 'production',
            scopes: ['content:read'],
            rate_limit_per_minute: 1000,
          },
        })
        return res.body.key as string
      }),
    )
    const flushed = () => Promise.all([hot.usage.flush(), hot.lastUsed.flush(), hot.requestLog.flush()])
    const rowsWritten = async () => {
      const writes = (await statements(tp.db.sql)).filter((s) => writeStatement.test(s.query))
      return writes.filter((s) => !/request_log/.test(s.query))
    }
    const describeRows = (rows: StatementCounts[]) =>
      rows.map((s) => `${s.rows} rows: ${s.query.replace(/\s+/g, ' ').slice(0, 100)}`).join('\n')
    await flushed()
    await resetStatements(tp.db.sql)
    for (const key of keys) {
      const res = await fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${key}` } })
      await res.arrayBuffer()
      expect(res.status).toBe(200)
    }
    await flushed()
    // The tenant's usage flush in the same window is per tenant, not per key: left to the budget below.
    const firstUse = (await rowsWritten()).filter((s) => /rate_limit_buckets|last_used_at/.test(s.query))
    const perNewKey = firstUse.reduce((n, s) => n + s.rows, 0) / keys.length
    expect(perNewKey, `rows written by a key's first use:\n${describeRows(firstUse)}`).toBeLessThanOrEqual(
      ROWS_WRITTEN_PER_NEW_KEY_BUDGET,
    )
    await resetStatements(tp.db.sql)
    let sent = 0
    const reads = 1000
    const started = performance.now()
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (sent < reads) {
          const current = keys[sent++ % keys.length]
          clock.advance(12) // each of the 5 keys sends 1000 a minute's share: half its limit
          const res = await fetch(`${tp.baseUrl}/v1/content`, {
            headers: { authorization: `Bearer ${current}` },
          })
          await res.arrayBuffer()
          expect(res.status).toBe(200)
        }
      }),
    )
    await flushed()
    const seconds = (performance.now() - started) / 1000
    // Rows each write statement touched (pg_stat_statements counts them as the statement ends;
    // nested statements, triggers' included, under track = all).
    const writes = (await statements(tp.db.sql)).filter((s) => writeStatement.test(s.query))
    const logRows = writes.filter((s) => /request_log/.test(s.query)).reduce((n, s) => n + s.rows, 0)
    const otherRows = writes.filter((s) => !/request_log/.test(s.query))
    const besidesLog = (otherRows.reduce((n, s) => n + s.rows, 0) * 1000) / reads
    const detail = describeRows(otherRows)
    console.log(
      `rows written per 1,000 keyed reads: ${besidesLog.toFixed(1)} besides the request log (${logRows} log rows for ${reads} reads in ${seconds.toFixed(1)} s: the buffers flush once a second, so a slow machine writes more per read)\n${detail}`,
    )
    expect(
      besidesLog,
      `rows written per 1,000 keyed reads besides the request log:\n${detail}`,
    ).toBeLessThanOrEqual(ROWS_WRITTEN_PER_1000_KEYED_READS_BUDGET)
  })
})
