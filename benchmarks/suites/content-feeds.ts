/**
 * A site's public RSS feed (GET /feeds/{site_id}/rss.xml: no key; the per-site, per-address rate
 * limit; the site found by the owner pool; its 20 latest published articles read under row-level
 * security with published-only claims; RSS rendered by feedsmith with each article's HTML; ETag and
 * Last-Modified), and the same feed answered 304 to If-None-Match, each against a bare route that
 * reads the same rows with the same query as the database owner on the same pool and answers them
 * as JSON (no rate limit, RLS, rendering or ETag), over HTTP on loopback in the same run
 * (docs/content.md, docs/adr/0033-public-feeds.md). Goal: 0.8 of the bare read.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { Hono } from 'hono'
import { measurePair, printComparison } from '../lib.ts'

export default async function contentFeedsBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ clock })
  const tenant = await tp.createTenant()
  const site = (
    await tp.json('/v1/content/sites', {
      token: tenant.token,
      body: { name: 'Bench', domain: 'bench.example.com', public_feeds: true },
    })
  ).body
  await tp.json('/v1/content/tags', { token: tenant.token, body: { name: 'Bench tag' } })
  const body =
    `${'A paragraph of an ordinary article, with **some** _markup_ and a [link](https://example.com). '.repeat(12)}\n\n`.repeat(
      8,
    )
  for (let i = 0; i < 30; i++) {
    const a = (
      await tp.json('/v1/content/articles', {
        token: tenant.token,
        body: { site_id: site.id, title: `Article ${i}`, body, tags: ['bench-tag'] },
      })
    ).body
    await tp.json(`/v1/content/articles/${a.id}/publish`, { method: 'POST', token: tenant.token })
  }
  await tp.db.sql`analyze public.sites, public.articles, public.article_tags, public.tags`
  const deps = tp.instances[0]!.platform.deps

  const bare = new Hono().get('/bare', async (c) => {
    // Same pool, the feed's select (author and tags included), as the owner: past row-level security.
    const rows = await deps.sql`
      select a.id, a.slug, a.title, a.body, a.excerpt, a.feature_image_url,
             (select n.name from private.author_names(array[a.author_id]) n) as author_name,
             a.published_at, a.updated_at,
             coalesce((select array_agg(t.name order by x.position)
                       from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                       where x.article_id = a.id), '{}') as tags
      from public.articles a
      where a.tenant_id = ${tenant.tenantId} and a.site_id = ${site.id} and a.status = 'published'
      order by a.published_at desc, a.id desc limit 20`
    return c.json(rows, 200)
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`
  const url = `${tp.baseUrl}/feeds/${site.id}/rss.xml`
  const first = await fetch(url)
  const etag = first.headers.get('etag')!
  if (first.status !== 200 || !etag) throw new Error(`status ${first.status}`)
  await first.arrayBuffer()

  // The limit is 60 a minute per site and address: the clock moves a second per request.
  const read = (headers: Record<string, string>, want: number) => async () => {
    clock.advance(1000)
    const res = await fetch(url, { headers })
    if (res.status !== want) throw new Error(`status ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
  const bareRead = async () => {
    const res = await fetch(bareUrl)
    if (res.status !== 200) throw new Error(`status ${res.status}`)
    await res.arrayBuffer()
  }
  const total = Number(process.env.BENCH_FEED_TOTAL ?? 600)
  for (const concurrency of [1, 10]) {
    const ok = await measurePair(
      { label: `public RSS feed, 200, ${concurrency} client(s)`, op: read({}, 200) },
      { label: `bare read of the rows, ${concurrency} client(s)`, op: bareRead },
      { total, concurrency },
    )
    printComparison(`Public feed at ${concurrency} client(s): 200 vs bare`, ok.subject, ok.baseline, 0.8)
    const notModified = await measurePair(
      { label: `public RSS feed, 304, ${concurrency} client(s)`, op: read({ 'if-none-match': etag }, 304) },
      { label: `bare read of the rows, ${concurrency} client(s)`, op: bareRead },
      { total, concurrency },
    )
    printComparison(
      `Public feed at ${concurrency} client(s): 304 vs bare`,
      notModified.subject,
      notModified.baseline,
      0.8,
    )
  }
  server.close()
  await tp.close()
}
