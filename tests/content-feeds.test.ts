// A site's public feeds and sitemap (docs/content.md, docs/adr/0033-public-feeds.md), over real
// HTTP without a key: RSS and Atom read back by rss-parser, the JSON Feed by its spec's fields,
// the sitemap by saxes (an XML parser independent of the builder); what they show against what a
// published-only key reads; ETag, Last-Modified and 304; the sitemap index past 50,000 URLs; the
// rate limit per site and client address.
import Parser from 'rss-parser'
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let publicKey: string
let siteId: string
let otherSiteId: string
const clock = new TestClock(new Date('2026-12-01T09:00:00Z'))
const rss = new Parser()
let client = 0
/** Each test reads from its own client address, so the rate limit is met only where it is tested. */
const reader = () => ({ 'x-test-client': `203.0.113.${++client}` })

async function article(
  tenant: TestTenant,
  site: string,
  title: string,
  opts: { publish?: boolean; tags?: string[] } = {},
) {
  const res = await tp.json('/v1/content/articles', {
    token: tenant.token,
    body: { site_id: site, title, body: `The **${title}** text.`, tags: opts.tags ?? [] },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  clock.advance(60_000)
  if (opts.publish !== false)
    expect(
      (await tp.json(`/v1/content/articles/${res.body.id}/publish`, { method: 'POST', token: tenant.token }))
        .status,
    ).toBe(200)
  return res.body as { id: string; slug: string }
}

/** The feed's document and headers, read as a reader with no key. */
async function fetchFeed(path: string, headers: Record<string, string> = reader()) {
  const res = await tp.request(path, { headers })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** The elements' text, in document order, of every `name` element (saxes: well-formed XML or it throws). */
function xmlTexts(xml: string, name: string): { root: string; texts: string[] } {
  const parser = new SaxesParser({ xmlns: true })
  let root = ''
  let inside = false
  let text = ''
  const texts: string[] = []
  parser.on('opentag', (t) => {
    if (!root) root = `${t.uri} ${t.local}`
    if (t.local === name) {
      inside = true
      text = ''
    }
  })
  parser.on('text', (t) => {
    if (inside) text += t
  })
  parser.on('closetag', (t) => {
    if (t.local === name) {
      inside = false
      texts.push(text)
    }
  })
  parser.write(xml).close()
  return { root, texts }
}

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id in (${a.tenantId}, ${b.tenantId})`
  const keyRes = await tp.json('/api/api-keys', {
    token: a.token,
    body: {
      name: 'site',
      environment: 'production',
      scopes: ['content:read'],
      published_only: true,
      rate_limit_per_minute: 1000,
    },
  })
  expect(keyRes.status, JSON.stringify(keyRes.body)).toBe(201)
  publicKey = keyRes.body.key
  siteId = (
    await tp.json('/v1/content/sites', {
      token: a.token,
      body: {
        name: 'Garden Journal',
        article_url_pattern: 'https://blog.example.com/posts/{slug}?ref=feed&x=1',
      },
    })
  ).body.id
  for (const name of ['Garden', 'Tech'])
    expect((await tp.json('/v1/content/tags', { token: a.token, body: { name } })).status).toBe(201)
  await article(a, siteId, 'Spring bulbs', { tags: ['garden'] })
  await article(a, siteId, 'Edge functions', { tags: ['tech'] })
  await article(a, siteId, 'Roses & <thorns>', { tags: ['garden', 'tech'] })
  await article(a, siteId, 'Secret draft', { publish: false })
  const scheduled = await article(a, siteId, 'Secret scheduled', { publish: false })
  await tp.json(`/v1/content/articles/${scheduled.id}/schedule`, {
    token: a.token,
    body: { publish_at: '2099-01-01T00:00:00Z' },
  })
  otherSiteId = (
    await tp.json('/v1/content/sites', {
      token: b.token,
      body: { name: 'Other', domain: 'other.example.com', public_feeds: true },
    })
  ).body.id
  await article(b, otherSiteId, 'Other tenant story')
})
afterAll(() => tp?.close())

describe('public feeds: the site setting', () => {
  it('serves nothing until the site turns public_feeds on (404 as for an unknown site), and needs links for it', async () => {
    for (const file of ['rss.xml', 'atom.xml', 'feed.json', 'sitemap.xml', 'sitemaps/1.xml']) {
      const res = await tp.json(`/feeds/${siteId}/${file}`, { headers: reader() })
      expect([res.status, res.body?.code], file).toEqual([404, 'NOT_FOUND'])
      const unknown = await tp.json(`/feeds/${crypto.randomUUID()}/${file}`, { headers: reader() })
      expect([unknown.status, unknown.body?.code], file).toEqual([404, 'NOT_FOUND'])
    }
    const bare = (await tp.json('/v1/content/sites', { token: a.token, body: { name: 'No links' } })).body
    const refused = await tp.json(`/v1/content/sites/${bare.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { public_feeds: true },
    })
    expect([refused.status, refused.body.code, refused.body.details?.[0]?.field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'public_feeds',
    ])
    expect((await tp.json(`/v1/content/sites/${bare.id}`, { token: a.token })).body.public_feeds).toBe(false)
    const badPattern = await tp.json(`/v1/content/sites/${siteId}`, {
      method: 'PATCH',
      token: a.token,
      body: { article_url_pattern: 'https://blog.example.com/posts' },
    })
    expect([badPattern.status, badPattern.body.details?.[0]?.field]).toEqual([400, 'article_url_pattern'])
    const on = await tp.json(`/v1/content/sites/${siteId}`, {
      method: 'PATCH',
      token: a.token,
      body: { public_feeds: true },
    })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(on.body).toMatchObject({ public_feeds: true, article_schema_type: 'Article' })
  })
})

describe('public feeds: what they show', () => {
  const link = (slug: string) => `https://blog.example.com/posts/${slug}?ref=feed&x=1`

  it('RSS 2.0, read back by rss-parser: the published articles, newest first, linked by the site pattern', async () => {
    const res = await fetchFeed(`/feeds/${siteId}/rss.xml`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/rss+xml')
    const feed = await rss.parseString(res.text)
    expect(feed.title).toBe('Garden Journal')
    expect(feed.link).toBe('https://blog.example.com/')
    expect(feed.items.map((i) => i.title)).toEqual(['Roses & <thorns>', 'Edge functions', 'Spring bulbs'])
    expect(feed.items[2]!.link).toBe(link('spring-bulbs'))
    expect(feed.items[0]!.categories).toEqual(['Garden', 'Tech'])
    expect(feed.items[1]!['content:encoded']).toContain('<strong>Edge functions</strong>')
    expect(res.text).not.toContain('Secret')
    expect(res.text).not.toContain('Other tenant')
  })

  it('Atom, read back by rss-parser, and the tag filter', async () => {
    const res = await fetchFeed(`/feeds/${siteId}/atom.xml?tag=garden`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/atom+xml')
    expect(xmlTexts(res.text, 'title').root).toBe('http://www.w3.org/2005/Atom feed')
    const feed = await rss.parseString(res.text)
    expect(feed.title).toBe('Garden Journal: garden')
    expect(feed.items.map((i) => [i.title, i.link])).toEqual([
      ['Roses & <thorns>', link('roses-thorns')],
      ['Spring bulbs', link('spring-bulbs')],
    ])
    const none = await rss.parseString((await fetchFeed(`/feeds/${siteId}/atom.xml?tag=tech&limit=1`)).text)
    expect(none.items.map((i) => i.title)).toEqual(['Roses & <thorns>'])
  })

  it('JSON Feed 1.1 with its required fields', async () => {
    const res = await fetchFeed(`/feeds/${siteId}/feed.json`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/feed+json')
    const feed = JSON.parse(res.text)
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1')
    expect(feed.title).toBe('Garden Journal')
    expect(feed.feed_url).toMatch(new RegExp(`/feeds/${siteId}/feed\\.json$`))
    for (const item of feed.items) {
      expect(typeof item.id).toBe('string')
      expect(item.content_html).toBeTypeOf('string')
      expect(new Date(item.date_published).toISOString()).toBe(item.date_published)
    }
  })

  it('shows exactly the articles a published-only key reads, and never another tenant’s', async () => {
    const asKey = await tp.json(`/v1/content?site_id=${siteId}&type=article&limit=100`, { token: publicKey })
    expect(asKey.status).toBe(200)
    const feed = JSON.parse((await fetchFeed(`/feeds/${siteId}/feed.json?limit=50`)).text)
    expect(feed.items.map((i: { id: string }) => i.id).sort()).toEqual(
      asKey.body.data.map((x: { id: string }) => x.id).sort(),
    )
    const other = JSON.parse((await fetchFeed(`/feeds/${otherSiteId}/feed.json`)).text)
    expect(other.items.map((i: { title: string }) => i.title)).toEqual(['Other tenant story'])
    expect(other.items[0].url).toBe('https://other.example.com/other-tenant-story')
  })

  it('sitemap.xml, read by saxes: every published article with its lastmod, nothing else', async () => {
    const res = await fetchFeed(`/feeds/${siteId}/sitemap.xml`)
    expect(res.status, res.text).toBe(200)
    const locs = xmlTexts(res.text, 'loc')
    expect(locs.root).toBe('http://www.sitemaps.org/schemas/sitemap/0.9 urlset')
    expect(locs.texts.sort()).toEqual(
      [link('edge-functions'), link('roses-thorns'), link('spring-bulbs')].sort(),
    )
    for (const at of xmlTexts(res.text, 'lastmod').texts) expect(new Date(at).toISOString()).toBe(at)
    const page = await fetchFeed(`/feeds/${siteId}/sitemaps/2.xml`)
    expect(page.status).toBe(404)
  })
})

describe('public feeds: caching', () => {
  it('answers ETag, Last-Modified and Cache-Control public, 304 for either validator, and a new tag after a publish', async () => {
    const first = await fetchFeed(`/feeds/${siteId}/rss.xml`)
    const etag = first.headers.get('etag')!
    const lastModified = first.headers.get('last-modified')!
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/)
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/)
    expect(new Date(lastModified).getTime()).toBeGreaterThan(0)
    const byTag = await fetchFeed(`/feeds/${siteId}/rss.xml`, { ...reader(), 'if-none-match': etag })
    expect([byTag.status, byTag.text]).toEqual([304, ''])
    const byDate = await fetchFeed(`/feeds/${siteId}/rss.xml`, {
      ...reader(),
      'if-modified-since': lastModified,
    })
    expect(byDate.status).toBe(304)
    await article(a, siteId, 'Winter pruning', { tags: ['garden'] })
    const after = await fetchFeed(`/feeds/${siteId}/rss.xml`, { ...reader(), 'if-none-match': etag })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(etag)
    expect(new Date(after.headers.get('last-modified')!).getTime()).toBeGreaterThan(
      new Date(lastModified).getTime(),
    )
    const sitemap = await fetchFeed(`/feeds/${siteId}/sitemap.xml`)
    const again = await fetchFeed(`/feeds/${siteId}/sitemap.xml`, {
      ...reader(),
      'if-none-match': sitemap.headers.get('etag')!,
    })
    expect(again.status).toBe(304)
  })
})

describe('public feeds: bounds', () => {
  it('refuses a malformed site id, tag or limit (400 naming the field)', async () => {
    const cases: [string, string][] = [
      ['/feeds/not-a-uuid/rss.xml', 'site_id'],
      [`/feeds/${siteId}/rss.xml?limit=0`, 'limit'],
      [`/feeds/${siteId}/rss.xml?limit=51`, 'limit'],
      [`/feeds/${siteId}/atom.xml?tag=Not%20a%20slug`, 'tag'],
      [`/feeds/${siteId}/sitemaps/0.xml`, 'page'],
    ]
    for (const [path, field] of cases) {
      const res = await tp.json(path, { headers: reader() })
      expect([res.status, res.body.code], path).toEqual([400, 'VALIDATION_ERROR'])
      expect(JSON.stringify(res.body.details), path).toContain(field)
    }
  })

  it('limits each client address per site: 60 a minute, 429 with Retry-After past it, other sites unaffected', async () => {
    const me = reader()
    const statuses: number[] = []
    for (let i = 0; i < 61; i++)
      statuses.push((await fetchFeed(`/feeds/${otherSiteId}/feed.json`, me)).status)
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true)
    const refused = await tp.json(`/feeds/${otherSiteId}/rss.xml`, { headers: me })
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED'])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await fetchFeed(`/feeds/${siteId}/rss.xml`, me)).status).toBe(200)
    expect((await fetchFeed(`/feeds/${otherSiteId}/rss.xml`, reader())).status).toBe(200)
  })
})

describe('sitemap index', () => {
  it('past 50,000 URLs, sitemap.xml is an index of files of at most 50,000 each', async () => {
    const big = (
      await tp.json('/v1/content/sites', {
        token: a.token,
        body: { name: 'Archive', domain: 'archive.example.com', public_feeds: true },
      })
    ).body.id
    // 50,001 published articles at once, as the owner (the API would take 50,001 requests).
    await tp.db.sql`
      insert into public.articles (tenant_id, site_id, slug, title, body, status, published_at, created_at, updated_at)
      select ${a.tenantId}, ${big}, 'old-' || n, 'Old ' || n, '', 'published',
             timestamptz '2020-01-01' + n * interval '1 minute', now(), now()
      from generate_series(1, 50001) n`
    const index = await fetchFeed(`/feeds/${big}/sitemap.xml`)
    expect(index.status, index.text.slice(0, 300)).toBe(200)
    const files = xmlTexts(index.text, 'loc')
    expect(files.root).toBe('http://www.sitemaps.org/schemas/sitemap/0.9 sitemapindex')
    expect(files.texts.map((u) => new URL(u).pathname)).toEqual([
      `/feeds/${big}/sitemaps/1.xml`,
      `/feeds/${big}/sitemaps/2.xml`,
    ])
    const first = xmlTexts((await fetchFeed(`/feeds/${big}/sitemaps/1.xml`)).text, 'loc').texts
    expect(first.length).toBe(50_000)
    expect(first[0]).toBe('https://archive.example.com/old-1')
    const second = xmlTexts((await fetchFeed(`/feeds/${big}/sitemaps/2.xml`)).text, 'loc').texts
    expect(second).toEqual(['https://archive.example.com/old-50001'])
    expect((await fetchFeed(`/feeds/${big}/sitemaps/3.xml`)).status).toBe(404)
  }, 120_000)
})
