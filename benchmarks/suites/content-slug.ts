/**
 * A published article read by slug with a published-only key
 * (GET /v1/content/sites/{site_id}/articles/{slug}: key cache, rate-limit lease, buffered metering,
 * one pipelined read under row-level security, JSON, ETag), and the same read answered 304 to
 * If-None-Match, each against a bare route that reads the same row with the same query as the
 * database owner on the same pool (no authentication, rate limit, RLS or ETag), over HTTP on
 * loopback in the same run (docs/content.md); and the same 200 read with a regular key (always under
 * RLS). The bare read is the same function with no claims, as the owner. Goals (issue 45): at least
 * 0.9 of the bare read on PostgreSQL (0.8 on PGlite); the 304 costing no more than the 200.
 * Run twice: with the published-read cache as deployed (docs/adr/0028-published-read-cache.md),
 * and with it off, so the read under RLS on every request is measured too.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { queryArticleBySlug } from '@shared/services/content/article-reads.ts'
import { presentArticle } from '@shared/services/content/article-row.ts'
import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { Hono } from 'hono'
import { measurePairCounted, printComparison } from '../lib.ts'

export default async function contentSlugBenchmark(): Promise<void> {
  // With the published-read cache as deployed (1 s), then off: the read under RLS on every request.
  for (const cacheMs of ['1000', '0']) await bySlugBenchmark(cacheMs)
}

async function bySlugBenchmark(cacheMs: string): Promise<void> {
  console.log(
    `\n# CONTENT_READ_CACHE_MS=${cacheMs}${cacheMs === '0' ? ' (the published-read cache off)' : ''}`,
  )
  const clock = new TestClock()
  const tp = await startTestPlatform({
    clock,
    env: { METERING_ENABLED: 'true', CONTENT_READ_CACHE_MS: cacheMs },
  })
  const tenant = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'enterprise' where id = ${tenant.tenantId}`
  const writer = (
    await tp.json('/api/api-keys', {
      token: tenant.token,
      body: {
        name: 'w',
        environment: 'production',
        scopes: ['content:read', 'content:write'],
        rate_limit_per_minute: 1000,
      },
    })
  ).body.key as string
  const site = (await tp.json('/v1/content/sites', { token: writer, body: { name: 'Bench' } })).body
  await tp.json('/v1/content/tags', { token: writer, body: { name: 'Bench tag' } })
  const body =
    `${'A paragraph of an ordinary article, with **some** _markup_ and a [link](https://example.com). '.repeat(12)}\n\n`.repeat(
      8,
    )
  for (let i = 0; i < 50; i++) {
    const a = (
      await tp.json('/v1/content/articles', {
        token: writer,
        body: { site_id: site.id, title: `Article ${i}`, body, tags: ['bench-tag'] },
      })
    ).body
    await tp.json(`/v1/content/articles/${a.id}/publish`, { method: 'POST', token: writer })
  }
  await tp.db.sql`analyze public.sites, public.articles, public.article_tags, public.tags`
  const publicKey = (
    await tp.json('/api/api-keys', {
      token: tenant.token,
      body: {
        name: 'p',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 1000,
        published_only: true,
      },
    })
  ).body.key as string
  const deps = tp.instances[0]!.platform.deps

  const regularKey = (
    await tp.json('/api/api-keys', {
      token: tenant.token,
      body: { name: 'r', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 1000 },
    })
  ).body.key as string
  const bare = new Hono().get('/bare', async (c) => {
    // Same pool, same function (tags and author included) with no claims: as the owner, past
    // row-level security.
    const [row] = await queryArticleBySlug(deps.sql, null, tenant.tenantId, site.id, 'article-25')
    return c.json(presentArticle(row!), 200)
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`
  const url = `${tp.baseUrl}/v1/content/sites/${site.id}/articles/article-25`
  const first = await fetch(url, { headers: { authorization: `Bearer ${publicKey}` } })
  const etag = first.headers.get('etag')!
  if (first.status !== 200 || !etag) throw new Error(`status ${first.status}`)
  await first.arrayBuffer()

  // Half the key's limit: 1000 a minute, so the clock moves 120 ms per request.
  const read =
    (headers: Record<string, string>, want: number, key = publicKey) =>
    async () => {
      clock.advance(120)
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, ...headers } })
      if (res.status !== want) throw new Error(`status ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
    }
  const bareRead = async () => {
    const res = await fetch(bareUrl)
    if (res.status !== 200) throw new Error(`status ${res.status}`)
    await res.arrayBuffer()
  }
  const onServer = Boolean(process.env.DATABASE_URL)
  const goal = onServer ? 0.9 : 0.8
  const pair = (label: string, op: () => Promise<void>, concurrency: number) =>
    measurePairCounted(
      tp.db.sql,
      { label, op },
      { label: `bare read of the row, ${concurrency} client(s)`, op: bareRead },
      { total: concurrency === 1 ? 1000 : 2000, concurrency, onServer },
    )
  for (const concurrency of [1, 10]) {
    // A regular key is never answered from the published-read cache: measured once, with it as deployed.
    if (cacheMs !== '0') {
      const regular = await pair(
        `by slug, regular key, 200, ${concurrency} client(s)`,
        read({}, 200, regularKey),
        concurrency,
      )
      printComparison(
        `Article by slug, regular key, at ${concurrency} client(s): 200 vs bare`,
        regular.subject,
        regular.baseline,
        goal,
      )
      regular.print()
    }
    const ok = await pair(
      `by slug, published-only key, 200, ${concurrency} client(s)`,
      read({}, 200),
      concurrency,
    )
    printComparison(
      `Article by slug, published-only key, at ${concurrency} client(s): 200 vs bare`,
      ok.subject,
      ok.baseline,
      goal,
    )
    ok.print()
    const notModified = await pair(
      `by slug, If-None-Match, 304, ${concurrency} client(s)`,
      read({ 'if-none-match': etag }, 304),
      concurrency,
    )
    printComparison(
      `Article by slug, published-only key, at ${concurrency} client(s): 304 vs bare`,
      notModified.subject,
      notModified.baseline,
      goal,
    )
    notModified.print()
    const ratio = notModified.subject.perSecond / ok.subject.perSecond
    console.log(`  304 against 200: ${ratio.toFixed(2)} (goal >= 1: ${ratio >= 1 ? 'met' : 'NOT met'})`)
  }
  server.close()
  await tp.close()
}
