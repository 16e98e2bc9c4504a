/**
 * sync-affiliate: a 100,000-row Awin feed (gzip CSV, generated row by row by the loopback peer)
 * synced into the products table through the job, against parsing the same download without
 * storing it (download + gunzip + CSV parse + normalise, through the same adapter) in the same
 * run; with the process's peak memory during each.
 */
import { awinAdapter } from '@shared/services/affiliate/adapters/awin.ts'
import type { ProgramRow } from '@shared/services/affiliate/adapters/types.ts'
import { startAffiliateServer } from '@tests/support/affiliate-server.ts'
import { startTestPlatform } from '@tests/support/platform.ts'

const ROWS = Number(process.env.AFFILIATE_BENCH_ROWS ?? 100_000)
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`

/** Runs `work` while sampling memory; returns seconds and the peaks above the start. */
async function sampled<T>(work: () => Promise<T>) {
  const base = process.memoryUsage()
  const peak = { rss: base.rss, heapUsed: base.heapUsed }
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    peak.rss = Math.max(peak.rss, m.rss)
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed)
  }, 20)
  const started = performance.now()
  try {
    const value = await work()
    return { value, seconds: (performance.now() - started) / 1000, base, peak }
  } finally {
    clearInterval(timer)
  }
}

export default async function (): Promise<void> {
  const peers = await startAffiliateServer()
  const tp = await startTestPlatform({
    env: { AWIN_FEED_URL: peers.url },
  })
  try {
    peers.awinFeeds.set('1', { generate: ROWS })
    const t = await tp.createTenant()
    const credential = await tp.json('/api/credentials', {
      token: t.token,
      body: {
        provider_id: '0b5f3c2e-6d1a-4e7b-9a42-3f8c1d2e5a60',
        name: 'Awin',
        environment: 'production',
        credential: peers.awinKey,
      },
    })
    if (credential.status !== 201) throw new Error(`credential: ${credential.status}`)
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${t.tenantId}, 'Bench') returning id`
    const dest = await tp.json('/api/affiliate/destinations', {
      token: t.token,
      body: { site_id: site!.id, name: 'Bench' },
    })
    const program = await tp.json(`/api/affiliate/destinations/${dest.body.id}/programs`, {
      token: t.token,
      body: { name: 'Awin', network: 'awin', config: { feed_ids: ['1'] }, currency: 'GBP' },
    })
    if (program.status !== 201) throw new Error(`program: ${program.status}`)
    const deps = tp.instances[0]!.platform.deps

    // Baseline: the same download parsed and normalised, nothing stored.
    const row = { ...program.body, tenant_id: t.tenantId, created_at: new Date() } as unknown as ProgramRow
    const parse = await sampled(async () => {
      let n = 0
      for await (const e of awinAdapter({ deps, program: row, secret: peers.awinKey }))
        if ('product' in e) n++
      return n
    })
    if (parse.value !== ROWS) throw new Error(`parsed ${parse.value} of ${ROWS}`)

    // The sync: POST -> 202 -> the job streams and upserts in batches of 500.
    const sync = await sampled(async () => {
      const res = await tp.json('/functions/v1/sync-affiliate', {
        headers: { apikey: tp.anonKey, authorization: `Bearer ${t.token}` },
        body: { destination_id: dest.body.id },
      })
      if (res.status !== 202) throw new Error(`sync: ${res.status}`)
      for (;;) {
        const job = (await tp.json(`/api/jobs/${res.body.job_id}`, { token: t.token })).body
        if (job.status === 'succeeded') return job.result.products as number
        if (job.status === 'failed') throw new Error(job.error)
        await new Promise((r) => setTimeout(r, 100))
      }
    })
    if (sync.value !== ROWS) throw new Error(`synced ${sync.value} of ${ROWS}`)

    const line = (label: string, s: typeof parse) =>
      console.log(
        `  ${label.padEnd(48)} ${String(Math.round(ROWS / s.seconds)).padStart(9)} rows/s   ${s.seconds.toFixed(1).padStart(6)} s   ` +
          `peak heap ${mb(s.peak.heapUsed)} (+${mb(s.peak.heapUsed - s.base.heapUsed)})   peak rss ${mb(s.peak.rss)} (+${mb(s.peak.rss - s.base.rss)})`,
      )
    console.log(`\nsync-affiliate: ${ROWS.toLocaleString('en')} rows (Awin gzip CSV)`)
    line('sync (download, parse, upsert 500/batch, stale)', sync)
    line('parse only (download, gunzip, CSV, normalise)', parse)
    console.log(`  sync / parse throughput: ${(parse.seconds / sync.seconds).toFixed(3)}`)
  } finally {
    await tp.close()
    await peers.close()
  }
}
