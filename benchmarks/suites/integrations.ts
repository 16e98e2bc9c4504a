/**
 * Integrations hub.
 * 1. The hourly token refresh over 10,000 OAuth connections that all expire within the hour, run
 *    by two instances at once against a loopback token endpoint that rotates refresh tokens and
 *    counts every refresh token presented (must be exactly once each). Baseline: the same 10,000
 *    token requests sent straight to the endpoint (no claim, vault or store).
 * 2. GET /api/integrations/:id/stats over 1,000,000 usage records (one INSERT ... SELECT
 *    generate_series), p50/p99. Baseline: the same aggregate with index scans disabled.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { catalog, integrationBySlug } from '@shared/services/integrations/catalog.ts'
import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { latencyStats, type Measurement, measure, printComparison } from '../lib.ts'

const CONNECTIONS = 10_000
const TENANTS = 100
const USAGE_ROWS = 1_000_000

async function startTokenEndpoint() {
  const uses = new Map<string, number>()
  let requests = 0
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      requests++
      const form = new URLSearchParams(body)
      const rt = form.get('refresh_token') ?? ''
      uses.set(rt, (uses.get(rt) ?? 0) + 1)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          access_token: `at_${randomBytes(16).toString('hex')}`,
          refresh_token: `rt_${randomBytes(16).toString('hex')}`,
          expires_in: 28_800,
          token_type: 'bearer',
          scope: 'repo,read:org',
        }),
      )
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    uses,
    get requests() {
      return requests
    },
    reset() {
      uses.clear()
      requests = 0
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

export default async function integrationsBenchmark(): Promise<void> {
  const endpoint = await startTokenEndpoint()
  const clock = new TestClock(new Date())
  const tp = await startTestPlatform({
    instances: 2,
    clock,
    env: {
      OAUTH_PROVIDERS_OVERRIDE: JSON.stringify({ github: { token_url: endpoint.url } }),
      OAUTH_GITHUB_CLIENT_ID: 'bench-client',
      OAUTH_GITHUB_CLIENT_SECRET: 'bench-secret',
    },
  })
  try {
    await refreshBenchmark(tp, endpoint, clock)
    await statsBenchmark(tp, clock)
  } finally {
    await tp.close()
    await endpoint.close()
  }
}

async function refreshBenchmark(
  tp: Awaited<ReturnType<typeof startTestPlatform>>,
  endpoint: Awaited<ReturnType<typeof startTokenEndpoint>>,
  clock: TestClock,
): Promise<void> {
  const github = integrationBySlug('github')!
  const vault = tp.instances[0]!.platform.deps.vault
  const tenants = await tp.db.sql<{ id: string }[]>`
    insert into public.tenants (name) select 'bench ' || g from generate_series(1, ${TENANTS}) g returning id`
  const tenantIds: string[] = []
  const accounts: string[] = []
  const access: string[] = []
  const refresh: string[] = []
  const expires: string[] = []
  const now = clock.now().getTime()
  for (let i = 0; i < CONNECTIONS; i++) {
    const tenant = tenants[i % TENANTS]!.id
    tenantIds.push(tenant)
    accounts.push(`acct-${i}`)
    access.push(await vault.encrypt(tenant, `at-initial-${i}`, 'oauth-access-token'))
    refresh.push(await vault.encrypt(tenant, `rt-initial-${i}`, 'oauth-refresh-token'))
    expires.push(new Date(now + (1 + (i % 58)) * 60_000).toISOString())
  }
  await tp.db.sql`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, external_account_id, scopes,
       access_token_encrypted, refresh_token_encrypted, token_expires_at)
    select t, ${github.integration_id}, 'github', 'oauth', a, '{repo,read:org}', ac, rt, e
    from unnest(${tenantIds}::uuid[], ${accounts}::text[], ${access}::text[], ${refresh}::text[], ${expires}::text[]::timestamptz[])
      as x(t, a, ac, rt, e)`

  // Baseline: the bare token requests, 16 at a time (the job's concurrency per instance).
  endpoint.reset()
  const form = (i: number) =>
    new URLSearchParams({ grant_type: 'refresh_token', refresh_token: `baseline-${i}` }).toString()
  const baseline = await measure(
    'direct token requests (no claim, vault, store)',
    async (i) => {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form(i),
      })
      await res.arrayBuffer()
    },
    { total: CONNECTIONS, concurrency: 32, warmup: 0 },
  )
  endpoint.reset()

  // Two instances run the job at once, each until nothing is left to claim.
  const runUntilDone = async (instance: number) => {
    let refreshed = 0
    for (;;) {
      const res = await tp.instances[instance]!.platform.runJob('integrations/jobs/refresh-tokens')
      const body = (await res.json()) as { claimed: number; refreshed: number; failed: number }
      if (res.status !== 200 || body.failed > 0)
        throw new Error(`refresh job: ${res.status} ${JSON.stringify(body)}`)
      refreshed += body.refreshed
      if (body.claimed === 0) return refreshed
    }
  }
  const started = performance.now()
  const perInstance = await Promise.all([runUntilDone(0), runUntilDone(1)])
  const seconds = (performance.now() - started) / 1000

  const doubles = [...endpoint.uses.values()].filter((n) => n > 1).length
  const [stored] = await tp.db.sql`
    select count(*) filter (where token_version = 2)::int as once, count(*) filter (where token_version > 2)::int as more
    from public.integration_connections`
  const subject: Measurement = {
    label: `refresh job, 2 instances (${perInstance.join(' + ')})`,
    count: CONNECTIONS,
    seconds,
    perSecond: CONNECTIONS / seconds,
    p50ms: 0,
    p99ms: 0,
  }
  printComparison(`Token refresh of ${CONNECTIONS} connections expiring within the hour`, subject, baseline)
  console.log(
    `  job wall time ${seconds.toFixed(2)} s; refresh tokens presented ${endpoint.requests} for ${endpoint.uses.size} distinct`,
  )
  console.log(
    `  double refreshes: ${doubles} (goal 0: ${doubles === 0 && stored!.more === 0 ? 'met' : 'NOT met'}); stored once: ${stored!.once}/${CONNECTIONS}`,
  )
}

async function statsBenchmark(
  tp: Awaited<ReturnType<typeof startTestPlatform>>,
  clock: TestClock,
): Promise<void> {
  const tenant = await tp.createTenant()
  const others = await tp.db.sql<
    { id: string }[]
  >`select id from public.tenants where id <> ${tenant.tenantId} limit 9`
  const tenantIds = [tenant.tenantId, ...others.map((o) => o.id)]
  const integrationIds = catalog.slice(0, 10).map((e) => e.integration_id)
  const slack = integrationBySlug('slack')!
  const now = clock.now()

  const t0 = performance.now()
  // Bulk load first, index after (as a restore would): the index is what the query measures, and
  // building it once is far quicker than maintaining it over a million single inserts.
  const [index] = await tp.db.sql<{ def: string }[]>`
    select pg_get_indexdef('public.integration_usage_stats_idx'::regclass) as def`
  await tp.db.sql`drop index public.integration_usage_stats_idx`
  await tp.db.sql`
    insert into public.integration_usage
      (tenant_id, integration_id, connection_id, tool_name, action, triggered_by, user_id, success, response_time_ms, created_at)
    select (${tenantIds}::uuid[])[1 + g % 10], (${integrationIds}::uuid[])[1 + (g / 10) % 10], null, 'bench:tool',
           case when g % 4 = 0 then 'read' else 'write' end,
           (array['assistant', 'automation', 'manual'])[1 + g % 3], null, g % 10 <> 0, (g * 7) % 900,
           ${now}::timestamptz - ((g % 43200) * interval '1 minute')
    from generate_series(1, ${USAGE_ROWS}) g`
  await tp.db.sql.unsafe(index!.def)
  await tp.db.sql`vacuum analyze public.integration_usage`
  console.log(`\n  seeded ${USAGE_ROWS} usage records in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  for (const period of ['24h', '30d'] as const) {
    const subject = await measure(
      `GET /api/integrations/slack/stats?period=${period}`,
      async () => {
        const res = await fetch(
          `${tp.baseUrl}/api/integrations/${slack.integration_id}/stats?period=${period}`,
          {
            headers: { authorization: `Bearer ${tenant.token}` },
          },
        )
        if (res.status !== 200) throw new Error(`status ${res.status}`)
        await res.arrayBuffer()
      },
      { total: 200, concurrency: 4, warmup: 10 },
    )
    // Baseline: the same aggregate without the index (a scan of all 1M rows), as the owner.
    const samples: number[] = []
    const from = new Date(now.getTime() - (period === '24h' ? 86_400_000 : 30 * 86_400_000))
    const t = performance.now()
    for (let i = 0; i < 5; i++) {
      const s = performance.now()
      await tp.db.sql.begin(async (tx) => {
        await tx`set local enable_indexscan = off`
        await tx`set local enable_indexonlyscan = off`
        await tx`set local enable_bitmapscan = off`
        await tx`
          select count(*), count(*) filter (where success), avg(response_time_ms),
                 count(*) filter (where triggered_by = 'assistant'), count(*) filter (where triggered_by = 'automation'),
                 count(*) filter (where triggered_by = 'manual')
          from public.integration_usage
          where tenant_id = ${tenant.tenantId} and integration_id = ${slack.integration_id} and created_at > ${from} and created_at <= ${now}`
      })
      samples.push(performance.now() - s)
    }
    const secs = (performance.now() - t) / 1000
    const baseline: Measurement = {
      label: 'same aggregate, no index (seq scan)',
      count: 5,
      seconds: secs,
      perSecond: 5 / secs,
      ...latencyStats(samples),
    }
    printComparison(`Stats over ${USAGE_ROWS} usage records, period ${period}`, subject, baseline)
  }
}
