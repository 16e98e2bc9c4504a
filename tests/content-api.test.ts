// The Content API as a site reads it (docs/content.md): article fields and slugs, tags, states
// and scheduling, revisions, output formats, published-only keys, ETags, and metering by key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
import { outbox } from './support/tenancy.ts'
import { waitFor } from './support/webhook-receiver.ts'

const clock = new TestClock(new Date('2026-11-21T12:00:30.000Z'))
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let writer: string
let reader: string
let publicKey: string
let siteId: string

async function key(token: string, body: Record<string, unknown>) {
  const res = await tp.json('/api/api-keys', {
    token,
    body: { name: 'k', environment: 'production', rate_limit_per_minute: 1000, ...body },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id in (${a.tenantId}, ${b.tenantId})`
  writer = await key(a.token, { scopes: ['content:read', 'content:write'] })
  reader = await key(a.token, { scopes: ['content:read'] })
  publicKey = await key(a.token, {
    scopes: ['content:read'],
    published_only: true,
    allowed_origins: ['https://blog.example.com'],
  })
  siteId = (await tp.json('/v1/content/sites', { token: writer, body: { name: 'Café Blog' } })).body.id
})
afterAll(() => tp.close())

const eventsOf = async (type: string, articleId?: string) =>
  (await outbox(tp, a.tenantId)).filter(
    (e) => e.type === type && (articleId === undefined || e.data.article_id === articleId),
  )

async function create(body: Record<string, unknown>, token = writer) {
  return tp.json('/v1/content/articles', { token, body: { site_id: siteId, ...body } })
}
const articleCount = async () =>
  Number((await tp.db.sql`select count(*) from public.articles where tenant_id = ${a.tenantId}`)[0]!.count)

describe('article fields and slugs', () => {
  it('makes a slug from the title (transliterated), numbers a duplicate, and names the holder of a taken one (409)', async () => {
    const first = await create({ title: 'Straße über Ærø: Tips!' })
    expect(first.status).toBe(201)
    expect(first.body.slug).toBe('strasse-uber-aero-tips')
    const second = await create({ title: 'Straße über Ærø — tips' })
    expect(second.body.slug).toBe('strasse-uber-aero-tips-2')
    const site = (await tp.json(`/v1/content/sites/${siteId}`, { token: writer })).body
    expect(site.slug).toBe('cafe-blog')

    const before = await articleCount()
    const taken = await create({ title: 'Other', slug: 'strasse-uber-aero-tips' })
    expect(taken.status).toBe(409)
    expect(taken.body).toMatchObject({ code: 'CONFLICT', details: [{ field: 'slug' }] })
    expect(taken.body.message).toContain(first.body.id)
    // The field's message names the holder by its title, as an editor knows it (then its id).
    expect(taken.body.details[0].message).toBe(
      `taken by the article "Straße über Ærø: Tips!" (${first.body.id})`,
    )
    const renamed = await tp.json(`/v1/content/articles/${second.body.id}`, {
      method: 'PATCH',
      token: writer,
      body: { slug: 'strasse-uber-aero-tips' },
    })
    expect(renamed.status).toBe(409)
    expect(await articleCount()).toBe(before)
  })

  it('keeps excerpt, feature image, tags, author and SEO fields, each validated, and nothing is half-written', async () => {
    const tag = await tp.json('/v1/content/tags', { token: writer, body: { name: 'Garden Tips' } })
    expect(tag.body).toMatchObject({ object: 'tag', name: 'Garden Tips', slug: 'garden-tips' })
    expect(
      (await tp.json('/v1/content/tags', { token: writer, body: { name: 'x', slug: 'garden-tips' } })).status,
    ).toBe(409)
    const made = await create({
      title: 'Spring',
      body: 'The first paragraph, with **bold** text.\n\nThe second.',
      feature_image: { url: 'https://img.example.com/a.jpg', alt: 'A garden' },
      tags: ['garden-tips'],
      meta_title: 'Spring | Blog',
      meta_description: 'What grows',
      canonical_url: 'https://blog.example.com/spring',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body).toMatchObject({
      slug: 'spring',
      excerpt: 'The first paragraph, with bold text.',
      custom_excerpt: null,
      feature_image: { url: 'https://img.example.com/a.jpg', alt: 'A garden' },
      tags: [{ id: tag.body.id, name: 'Garden Tips', slug: 'garden-tips' }],
      author: { id: a.userId, name: a.email.split('@')[0] },
      meta_title: 'Spring | Blog',
      canonical_url: 'https://blog.example.com/spring',
      status: 'draft',
    })
    const updated = (await eventsOf('content.updated', made.body.id))[0]!
    expect(updated.data).toMatchObject({ change: 'created', slug: 'spring', tags: ['garden-tips'] })

    const before = await articleCount()
    const bad: [Record<string, unknown>, string][] = [
      [{ title: 'x'.repeat(501) }, 'title'],
      [{ title: 't', excerpt: 'x'.repeat(501) }, 'excerpt'],
      [{ title: 't', tags: ['no-such-tag'] }, 'tags'],
      [{ title: 't', feature_image: { url: 'http://img.example.com/a.jpg' } }, 'feature_image.url'],
      [{ title: 't', feature_image: { url: 'javascript:alert(1)' } }, 'feature_image.url'],
      [{ title: 't', canonical_url: 'data:text/html,<script>' }, 'canonical_url'],
      [{ title: 't', slug: 'Not A Slug' }, 'slug'],
      [{ title: 't', author_id: b.userId }, 'author_id'],
      [{ title: 't', meta_description: 'x'.repeat(501) }, 'meta_description'],
    ]
    for (const [body, field] of bad) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    }
    expect(await articleCount()).toBe(before)
  })

  it('a published article answers at its old slug with 301 and redirect_to', async () => {
    const made = (await create({ title: 'Moving Day' })).body
    await tp.json(`/v1/content/articles/${made.id}/publish`, { method: 'POST', token: writer })
    await tp.json(`/v1/content/articles/${made.id}`, {
      method: 'PATCH',
      token: writer,
      body: { slug: 'moved' },
    })
    const old = await fetch(`${tp.baseUrl}/v1/content/sites/${siteId}/articles/moving-day`, {
      headers: { authorization: `Bearer ${publicKey}` },
      redirect: 'manual',
    })
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe(`/v1/content/sites/${siteId}/articles/moved`)
    expect(await old.json()).toEqual({ redirect_to: 'moved', article_id: made.id })
    const now = await tp.json(`/v1/content/sites/${siteId}/articles/moved`, { token: publicKey })
    expect(now.body).toMatchObject({ id: made.id, slug: 'moved' })
  })
})

describe('states and scheduling', () => {
  it('schedules, reschedules, cancels, refuses a past time, and the job publishes once with content.published', async () => {
    const made = (await create({ title: 'Scheduled piece' })).body
    const past = await tp.json(`/v1/content/articles/${made.id}/schedule`, {
      token: writer,
      body: { publish_at: new Date(clock.now().getTime() - 1000).toISOString() },
    })
    expect(past.status).toBe(400)
    expect(past.body.details[0].field).toBe('publish_at')
    const at1 = new Date(clock.now().getTime() + 60_000).toISOString()
    const at2 = new Date(clock.now().getTime() + 120_000).toISOString()
    const scheduled = await tp.json(`/v1/content/articles/${made.id}/schedule`, {
      token: writer,
      body: { publish_at: at1 },
    })
    expect(scheduled.body).toMatchObject({ status: 'scheduled', publish_at: at1 })
    await tp.json(`/v1/content/articles/${made.id}/schedule`, { token: writer, body: { publish_at: at2 } })
    const cancelled = await tp.json(`/v1/content/articles/${made.id}/schedule`, {
      method: 'DELETE',
      token: writer,
    })
    expect(cancelled.body).toMatchObject({ status: 'draft', publish_at: null })
    await tp.json(`/v1/content/articles/${made.id}/schedule`, { token: writer, body: { publish_at: at2 } })
    expect((await eventsOf('content.scheduled', made.id)).map((e) => e.data.rescheduled)).toEqual([
      false,
      true,
      false,
    ])
    expect(await eventsOf('content.unpublished', made.id)).toHaveLength(1)

    const runJob = () =>
      tp.json('/functions/v1/content/jobs/publish-scheduled', {
        method: 'POST',
        headers: { apikey: tp.serviceRoleKey },
      })
    clock.advance(60_000)
    expect((await runJob()).body.published).toBe(0)
    expect(await eventsOf('content.published', made.id)).toHaveLength(0)
    clock.advance(60_000)
    await runJob()
    await runJob()
    const published = await eventsOf('content.published', made.id)
    expect(published).toHaveLength(1)
    expect(published[0]!.data).toEqual({
      article_id: made.id,
      title: 'Scheduled piece',
      site_id: siteId,
      published_at: at2,
    })
    const after = (await tp.json(`/v1/content/articles/${made.id}`, { token: writer })).body
    expect(after).toMatchObject({ status: 'published', published_at: at2, publish_at: null })
    expect(after.published_revision_id).toBe(after.revision_id)
    // Published: scheduling again is a conflict.
    const again = await tp.json(`/v1/content/articles/${made.id}/schedule`, {
      token: writer,
      body: { publish_at: new Date(clock.now().getTime() + 60_000).toISOString() },
    })
    expect(again.status).toBe(409)
  })
})

describe('revisions', () => {
  it('keeps one revision per save, lists and reads them, restores as a new revision, and shows edits since publishing', async () => {
    const made = (await create({ title: 'Rev one', body: 'first' })).body
    await tp.json(`/v1/content/articles/${made.id}/publish`, { method: 'POST', token: writer })
    const edited = await tp.json(`/v1/content/articles/${made.id}`, {
      method: 'PATCH',
      token: writer,
      body: { title: 'Rev two', body: 'second' },
    })
    expect(edited.body.edited_since_published).toBe(true)
    const list = await tp.json(`/v1/content/articles/${made.id}/revisions`, { token: writer })
    expect(list.status).toBe(200)
    expect(list.body.data.map((r: { number: number; reason: string }) => [r.number, r.reason])).toEqual([
      [2, 'updated'],
      [1, 'created'],
    ])
    const first = await tp.json(`/v1/content/articles/${made.id}/revisions/${list.body.data[1].id}`, {
      token: writer,
    })
    expect(first.body).toMatchObject({ title: 'Rev one', body: 'first', slug: 'rev-one' })
    const restored = await tp.json(
      `/v1/content/articles/${made.id}/revisions/${list.body.data[1].id}/restore`,
      {
        method: 'POST',
        token: writer,
      },
    )
    expect(restored.body).toMatchObject({ title: 'Rev one', body: 'first' })
    const after = await tp.json(`/v1/content/articles/${made.id}/revisions`, { token: writer })
    expect(after.body.data[0]).toMatchObject({ number: 3, reason: 'restored', created_by: a.userId })
    // Another tenant's article and revision: 404.
    expect((await tp.json(`/v1/content/articles/${made.id}/revisions`, { token: b.token })).status).toBe(404)
  })

  it('keeps at most 50 revisions per article, pruning the oldest', async () => {
    const made = (await create({ title: 'Many', body: '0' })).body
    for (let i = 1; i <= 52; i++)
      await tp.json(`/v1/content/articles/${made.id}`, {
        method: 'PATCH',
        token: writer,
        body: { body: String(i) },
      })
    const [row] = await tp.db.sql<{ n: number; min: number }[]>`
      select count(*)::int as n, min(number) as min from public.article_revisions where article_id = ${made.id}`
    expect(row).toEqual({ n: 50, min: 4 })
  })
})

describe('formats', () => {
  it('answers markdown by default, and html and plaintext on request; formats=pdf is refused', async () => {
    const made = (await create({ title: 'Formatted', body: '# Hi\n\nSome *text* <script>alert(1)</script>' }))
      .body
    const def = await tp.json(`/v1/content/articles/${made.id}`, { token: reader })
    expect(def.body.body).toContain('# Hi')
    expect(def.body.html).toBeUndefined()
    const both = await tp.json(`/v1/content/articles/${made.id}?formats=html,plaintext`, { token: reader })
    expect(both.body.html).toBe('<h1>Hi</h1>\n<p>Some <em>text</em> </p>\n')
    expect(both.body.plaintext).toBe('Hi\n\nSome text ')
    expect(both.body.body).toBeUndefined()
    const pdf = await tp.json(`/v1/content/articles/${made.id}?formats=pdf`, { token: reader })
    expect(pdf.status).toBe(400)
    expect(pdf.body.details[0].field).toBe('formats')
  })
})

describe('a page of articles whole (a static build in one request)', () => {
  it("gives each article of the page with its body in the formats asked, under the caller's rows, and refuses an unknown format", async () => {
    const site = (await tp.json('/v1/content/sites', { token: writer, body: { name: 'Build site' } })).body.id
    const made = []
    for (const n of [1, 2, 3]) {
      const article = (
        await tp.json('/v1/content/articles', {
          token: writer,
          body: { site_id: site, title: `Built ${n}`, body: `Body *${n}*`, tags: [], excerpt: `Ex ${n}` },
        })
      ).body
      made.push(article)
    }
    for (const article of made.slice(0, 2))
      await tp.json(`/v1/content/articles/${article.id}/publish`, { method: 'POST', token: writer })

    const whole = await tp.json(`/v1/content?site_id=${site}&type=article&formats=html`, { token: publicKey })
    expect(whole.status).toBe(200)
    // The published-only key gets the two published articles, each whole, and not the draft.
    // (The test clock stands still, so the page's order is by id: sort by title to compare.)
    const byTitle = (items: { title: string }[]) => [...items].sort((x, y) => x.title.localeCompare(y.title))
    const published = byTitle(whole.body.data)
    expect(published.map((i) => i.title)).toEqual(['Built 1', 'Built 2'])
    for (const [i, item] of (published as Record<string, unknown>[]).entries()) {
      expect(item).toMatchObject({ object: 'article', status: 'published', excerpt: `Ex ${i + 1}` })
      expect(item.html).toBe(`<p>Body <em>${i + 1}</em></p>\n`)
      expect(item.body).toBeUndefined()
      expect(item.tags).toEqual([])
    }
    // A member's key sees the draft too, whole; without formats every item stays a summary.
    const all = await tp.json(`/v1/content?site_id=${site}&type=article&formats=markdown,plaintext`, {
      token: reader,
    })
    const everything = byTitle(all.body.data) as unknown as Record<string, unknown>[]
    expect(everything.map((i) => i.body)).toEqual(['Body *1*', 'Body *2*', 'Body *3*'])
    expect(everything[2]!.plaintext).toBe('Body 3')
    const summary = await tp.json(`/v1/content?site_id=${site}&type=article`, { token: reader })
    expect(summary.body.data).toHaveLength(3)
    expect(summary.body.data.every((i: Record<string, unknown>) => !('body' in i) && !('html' in i))).toBe(
      true,
    )
    // One metered request for the whole page, as for a summary: counted on tenant b, whose keys have
    // made no request yet (the count is buffered; wait for it).
    const bKey = await key(b.token, { scopes: ['content:read'] })
    const bSite = (await tp.json('/v1/content/sites', { token: b.token, body: { name: 'B' } })).body.id
    await tp.json('/v1/content/articles', {
      token: b.token,
      body: { site_id: bSite, title: 'B1', body: 'x' },
    })
    const contentRequests = async () =>
      Number(
        (
          await tp.db.sql`select coalesce(sum(units), 0) as n from public.usage_counters
            where tenant_id = ${b.tenantId} and product_id = '0f3c6a52-6f0e-4c51-9a10-000000000001'`
        )[0]!.n,
      )
    expect(await contentRequests()).toBe(0)
    const bWhole = await tp.json('/v1/content?type=article&formats=html', { token: bKey })
    expect(bWhole.body.data[0].html).toBe('<p>x</p>\n')
    await tp.json('/v1/content?type=article', { token: bKey })
    await waitFor(async () => (await contentRequests()) === 2, 10_000, 'two requests counted')

    const bad = await tp.json(`/v1/content?formats=pdf`, { token: reader })
    expect(bad.status).toBe(400)
    expect(bad.body.details[0].field).toBe('formats')
  })
})

describe('published-only keys', () => {
  it('is a platform key with content:read only', async () => {
    for (const body of [
      { scopes: ['content:read', 'content:write'], published_only: true },
      { scopes: ['content:read'], published_only: true, kind: 'tool_server', environment: 'development' },
      { scopes: ['content:read'], allowed_origins: ['https://x.example.com'] },
      { scopes: ['content:read'], published_only: true, allowed_origins: ['https://x.example.com/path'] },
    ]) {
      const res = await tp.json('/api/api-keys', {
        token: a.token,
        body: { name: 'k', environment: 'production', rate_limit_per_minute: 10, ...body },
      })
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
  })

  it('reads published articles, sites and tags, finds no draft or scheduled article, and is refused revisions and sources', async () => {
    await tp.json('/v1/content/tags', { token: writer, body: { name: 'Shared tag' } })
    const draft = (await create({ title: 'Secret draft', slug: 'secret-draft', tags: ['shared-tag'] })).body
    const scheduled = (await create({ title: 'Secret scheduled', slug: 'secret-scheduled' })).body
    await tp.json(`/v1/content/articles/${scheduled.id}/schedule`, {
      token: writer,
      body: { publish_at: new Date(clock.now().getTime() + 3_600_000).toISOString() },
    })
    const live = (await create({ title: 'Live one', slug: 'live-one', tags: ['shared-tag'] })).body
    await tp.json(`/v1/content/articles/${live.id}/publish`, { method: 'POST', token: writer })
    const liveRevision = (await tp.json(`/v1/content/articles/${live.id}/revisions`, { token: writer })).body
      .data[0].id

    const get = (path: string) => tp.json(path, { token: publicKey })
    for (const hidden of [draft, scheduled]) {
      expect((await get(`/v1/content/articles/${hidden.id}`)).status).toBe(404)
      expect((await get(`/v1/content/articles/${hidden.id}?formats=html`)).status).toBe(404)
      expect((await get(`/v1/content/sites/${siteId}/articles/${hidden.slug}`)).status).toBe(404)
    }
    // Revisions and sources are never a published-only key's: those routes do not take it at all.
    for (const article of [draft, live]) {
      expect((await get(`/v1/content/articles/${article.id}/revisions`)).status).toBe(403)
      expect((await get(`/v1/content/articles/${article.id}/sources`)).status).toBe(403)
    }
    expect((await get(`/v1/content/articles/${live.id}/revisions/${liveRevision}`)).status).toBe(403)
    expect((await get(`/v1/content/articles/${live.id}`)).body).toMatchObject({
      title: 'Live one',
      status: 'published',
    })
    expect((await get(`/v1/content/sites/${siteId}/articles/live-one`)).status).toBe(200)

    // Every page of the feed, every filter: published articles only.
    for (const query of [
      '',
      '?type=article',
      '?status=draft',
      '?status=scheduled',
      '?tag=shared-tag',
      `?site_id=${siteId}`,
      '?order=newest',
      '?q=secret',
    ]) {
      let cursor: string | null = null
      do {
        const sep: string = query ? '&' : '?'
        const page = await get(
          `/v1/content${query}${cursor ? `${sep}cursor=${cursor}&limit=100` : `${query ? '&' : '?'}limit=100`}`,
        )
        expect(page.status).toBe(200)
        for (const item of page.body.data)
          if (item.object === 'article') expect(item.status, `${query}: ${item.title}`).toBe('published')
        expect(page.body.data.some((i: { id: string }) => i.id === draft.id || i.id === scheduled.id)).toBe(
          false,
        )
        cursor = page.body.next_cursor
      } while (cursor)
    }
    const siteRead = await get(`/v1/content/sites/${siteId}`)
    expect(siteRead.status).toBe(200)
    expect(siteRead.body.counts).toBeUndefined()
    expect((await get('/v1/content/tags')).body.data.map((t: { slug: string }) => t.slug)).toContain(
      'shared-tag',
    )
    // Writes: the key has content:read only.
    expect((await tp.json('/v1/content/tags', { token: publicKey, body: { name: 'nope' } })).status).toBe(403)
    expect(
      (await tp.json(`/v1/content/articles/${draft.id}/publish`, { method: 'POST', token: publicKey }))
        .status,
    ).toBe(403)
    // The tool server (MCP content resources and tools) takes no platform key at all.
    const mcp = await tp.json('/mcp', {
      token: publicKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `content://articles/${draft.id}` },
      },
    })
    expect(mcp.status).toBe(401)
    // A content:read key that is not published-only still reads the draft.
    expect((await tp.json(`/v1/content/articles/${draft.id}`, { token: reader })).status).toBe(200)
  })

  it('answers CORS for its allowed origins only, and public caching for its reads', async () => {
    const preflight = await tp.request('/v1/content', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://blog.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://blog.example.com')
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
    const allowed = await tp.request('/v1/content', {
      token: publicKey,
      headers: { origin: 'https://blog.example.com' },
    })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://blog.example.com')
    expect(allowed.headers.get('cache-control')).toBe('public, max-age=60')
    const other = await tp.request('/v1/content', {
      token: publicKey,
      headers: { origin: 'https://evil.example.com' },
    })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    // A key that can read drafts never gets CORS for an origin, nor public caching.
    const privateRead = await tp.request('/v1/content', {
      token: reader,
      headers: { origin: 'https://blog.example.com' },
    })
    expect(privateRead.headers.get('access-control-allow-origin')).toBeNull()
    expect(privateRead.headers.get('cache-control')).toBe('private, no-cache')
  })
})

describe('ETag and 304', () => {
  it('answers every content GET with an ETag, and 304 without a body to If-None-Match with the current tag', async () => {
    const made = (await create({ title: 'Tagged' })).body
    await tp.json(`/v1/content/articles/${made.id}/publish`, { method: 'POST', token: writer })
    for (const path of [
      '/v1/content',
      `/v1/content/articles/${made.id}`,
      `/v1/content/sites/${siteId}/articles/tagged`,
      `/v1/content/sites/${siteId}`,
      '/v1/content/tags',
    ]) {
      const first = await tp.request(path, { token: publicKey })
      expect(first.status, path).toBe(200)
      const etag = first.headers.get('etag')!
      expect(etag).toMatch(/^"[0-9a-f]{24}"$/)
      const again = await tp.request(path, { token: publicKey, headers: { 'if-none-match': etag } })
      expect(again.status, path).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      const stale = await tp.request(path, { token: publicKey, headers: { 'if-none-match': '"0000"' } })
      expect(stale.status).toBe(200)
    }
    const bySlug = `/v1/content/sites/${siteId}/articles/tagged`
    const etag = (await tp.request(bySlug, { token: publicKey })).headers.get('etag')!
    await tp.json(`/v1/content/articles/${made.id}`, {
      method: 'PATCH',
      token: writer,
      body: { title: 'Tagged, edited' },
    })
    expect((await tp.request(bySlug, { token: publicKey, headers: { 'if-none-match': etag } })).status).toBe(
      200,
    )
  })
})

describe('metering', () => {
  it('counts requests made with API keys, never a signed-in member, and names the quota when it stops a key', async () => {
    const t = await tp.createTenant()
    const k = await key(t.token, { scopes: ['content:read', 'content:write'] })
    const used = async () =>
      Number(
        (
          await tp.db.sql`select coalesce(sum(units), 0) as n from public.usage_counters
            where tenant_id = ${t.tenantId} and product_id = '0f3c6a52-6f0e-4c51-9a10-000000000001'`
        )[0]!.n,
      )
    const s = (await tp.json('/v1/content/sites', { token: t.token, body: { name: 'Mine' } })).body
    for (let i = 0; i < 5; i++) await tp.json(`/v1/content/sites/${s.id}`, { token: t.token })
    await tp.json('/v1/content', { token: t.token })
    expect(await used()).toBe(0)
    await tp.json(`/v1/content/sites/${s.id}`, { token: k })
    await tp.json('/v1/content', { token: k })
    // The buffered count of GET /v1/content is written within a second.
    await new Promise((r) => setTimeout(r, 1500))
    expect(await used()).toBe(2)
    await tp.db.sql`update public.usage_counters set units = 100 where tenant_id = ${t.tenantId}`
    const stopped = await tp.json(`/v1/content/sites/${s.id}`, { token: k })
    expect(stopped.status).toBe(429)
    expect(stopped.body.code).toBe('QUOTA_EXCEEDED')
    expect(stopped.body.message).toMatch(/100 of 100/)
    expect(stopped.body.message).toMatch(/plan/)
    // The member still works in the dashboard.
    expect((await tp.json(`/v1/content/sites/${s.id}`, { token: t.token })).status).toBe(200)
  })
})
