/**
 * Metered GET /v1/content against the same request with metering off, on one platform and one
 * database in the same run (the switch is the METERING_ENABLED setting, flipped on the running
 * instance). Rounds alternate so that drift (cache warmth, table growth) hits both sides alike.
 * Goal (issue 4): metering costs under 20% of throughput, i.e. ratio >= 0.8.
 */
import { startTestPlatform, TestClock } from '../../tests/support/platform.ts'
import { type Measurement, measure, printComparison } from '../lib.ts'

function combine(label: string, runs: Measurement[]): Measurement {
  const count = runs.reduce((n, r) => n + r.count, 0)
  const seconds = runs.reduce((n, r) => n + r.seconds, 0)
  return {
    label,
    count,
    seconds,
    perSecond: count / seconds,
    // Per-round percentiles: report the worse round, never flatter.
    p50ms: Math.max(...runs.map((r) => r.p50ms)),
    p99ms: Math.max(...runs.map((r) => r.p99ms)),
  }
}

export default async function meteringBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ clock })
  const config = tp.instances[0]!.platform.deps.config
  const tenant = await tp.createTenant()
  // A paid plan with room: every metered call takes the normal path (upsert, quota compare).
  await tp.db.sql`update public.tenants set plan = 'business' where id = ${tenant.tenantId}`
  const [site] = await tp.db
    .sql`insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Bench site') returning id`
  await tp.db.sql`
    insert into public.articles (tenant_id, site_id, title, status)
    select ${tenant.tenantId}, ${site!.id}, 'Article ' || g, 'published' from generate_series(1, 200) g`
  const created = await tp.json('/api/api-keys', {
    token: tenant.token,
    body: { name: 'bench', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 1000 },
  })
  const key = created.body.key as string

  let sent = 0
  const op = async () => {
    // Stay under the key's 1000/min: a new minute every 500 requests (same month throughout).
    if (sent++ % 500 === 0) clock.advance(60_000)
    const res = await fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${key}` } })
    if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }

  const total = 1500
  const on: Measurement[] = []
  const off: Measurement[] = []
  for (let round = 0; round < 2; round++) {
    config.METERING_ENABLED = false
    off.push(await measure('off', op, { total, concurrency: 8 }))
    config.METERING_ENABLED = true
    on.push(await measure('on', op, { total, concurrency: 8 }))
  }
  const [counted] = await tp.db.sql<{ units: string }[]>`
    select coalesce(sum(units), 0)::text as units from public.usage_counters where tenant_id = ${tenant.tenantId}`
  printComparison(
    'Usage metering on GET /v1/content (one upsert per request)',
    combine('GET /v1/content, metered', on),
    combine('GET /v1/content, metering off', off),
    0.8,
  )
  // Warm-up calls of the metered rounds are counted too.
  console.log(`  counted ${counted!.units} metered calls (expected ${2 * total + 2 * 50})`)
  await tp.close()
}
