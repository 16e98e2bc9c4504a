import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency } from './support/concurrency.ts'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { outbox } from './support/tenancy.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let writer: string
let reader: string

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  // Many calls below: a paid plan keeps the Free content quota out of the way.
  await tp.db.sql`update public.tenants set plan = 'pro' where id in (${a.tenantId}, ${b.tenantId})`
  const key = async (scopes: string[]) =>
    (
      await tp.json('/api/api-keys', {
        token: a.token,
        body: { name: 'k', environment: 'production', scopes, rate_limit_per_minute: 1000 },
      })
    ).body.key as string
  writer = await key(['content:write', 'content:read'])
  reader = await key(['content:read'])
})
afterAll(() => tp.close())

const eventsOf = async (tenantId: string, type: string) =>
  (await outbox(tp, tenantId)).filter((e) => e.type === type)

async function site(token = writer, body: Record<string, unknown> = { name: 'Blog' }) {
  const res = await tp.json('/v1/content/sites', { token, body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string }
}
async function article(siteId: string, token = writer, title = 'Draft') {
  const res = await tp.json('/v1/content/articles', { token, body: { site_id: siteId, title, body: 'text' } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; title: string; site_id: string; status: string }
}

describe('sites', () => {
  it('creates a site with content:write (site.created once) and deletes it with its articles (site.deleted once)', async () => {
    const res = await tp.json('/v1/content/sites', {
      token: writer,
      body: { name: 'Tech', domain: 'Blog.Example.com' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ object: 'site', name: 'Tech', domain: 'blog.example.com' })
    const created = (await eventsOf(a.tenantId, 'site.created')).filter((e) => e.data.site_id === res.body.id)
    expect(created).toHaveLength(1)
    expect(created[0]!.data).toEqual({
      site_id: res.body.id,
      name: 'Tech',
      domain: 'blog.example.com',
      created_at: res.body.created_at,
    })
    await article(res.body.id)
    expect(
      (await tp.json(`/v1/content/sites/${res.body.id}`, { method: 'DELETE', token: writer })).status,
    ).toBe(204)
    const deleted = (await eventsOf(a.tenantId, 'site.deleted')).filter((e) => e.data.site_id === res.body.id)
    expect(deleted).toHaveLength(1)
    expect(deleted[0]!.data).toMatchObject({
      site_id: res.body.id,
      name: 'Tech',
      domain: 'blog.example.com',
      articles_deleted: 1,
    })
    const [left] = await tp.db
      .sql`select count(*)::int as n from public.articles where site_id = ${res.body.id}`
    expect(left!.n).toBe(0)
    expect(
      (await tp.json(`/v1/content/sites/${res.body.id}`, { method: 'DELETE', token: writer })).status,
    ).toBe(404)
  })

  it('refuses writes with a content:read key (403) and without credentials (401)', async () => {
    const res = await tp.json('/v1/content/sites', { token: reader, body: { name: 'x' } })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('INSUFFICIENT_PERMISSIONS')
    expect((await tp.json('/v1/content/sites', { body: { name: 'x' } })).status).toBe(401)
  })

  it('lets signed-in members write content with their JWT', async () => {
    const member = await addMember(tp, a.tenantId, 'member')
    expect(
      (await tp.json('/v1/content/sites', { token: member.token, body: { name: 'Members site' } })).status,
    ).toBe(201)
  })

  it.each([
    ['empty name', { name: '' }, 'name'],
    ['bad domain', { name: 'x', domain: 'http://x' }, 'domain'],
    ['unknown field', { name: 'x', theme: 'dark' }, '(body)'],
  ])('refuses %s with 400 and writes nothing', async (_n, body, field) => {
    const [before] = await tp.db.sql`select count(*)::int as n from public.sites`
    const res = await tp.json('/v1/content/sites', { token: writer, body })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    const [after] = await tp.db.sql`select count(*)::int as n from public.sites`
    expect(after!.n).toBe(before!.n)
  })
})

describe('articles', () => {
  it('creates, updates (only on change), publishes (once) and deletes, each with its event', async () => {
    const s = await site()
    const art = await article(s.id)
    expect(art).toMatchObject({
      object: 'article',
      site_id: s.id,
      title: 'Draft',
      status: 'draft',
      published_at: null,
    })
    const forArticle = async (type: string) =>
      (await eventsOf(a.tenantId, type)).filter((e) => e.data.article_id === art.id)
    expect((await forArticle('content.updated')).map((e) => e.data.change)).toEqual(['created'])

    const patched = await tp.json(`/v1/content/articles/${art.id}`, {
      method: 'PATCH',
      token: writer,
      body: { title: 'Final' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body.title).toBe('Final')
    const unchanged = await tp.json(`/v1/content/articles/${art.id}`, {
      method: 'PATCH',
      token: writer,
      body: { title: 'Final', body: 'text' },
    })
    expect(unchanged.status).toBe(200)
    const updates = await forArticle('content.updated')
    expect(updates.map((e) => e.data.change)).toEqual(['created', 'updated'])
    expect(updates[1]!.data).toMatchObject({
      article_id: art.id,
      site_id: s.id,
      title: 'Final',
      changed_fields: ['title'],
    })

    const published = await tp.json(`/v1/content/articles/${art.id}/publish`, {
      method: 'POST',
      token: writer,
    })
    expect(published.status).toBe(200)
    expect(published.body.status).toBe('published')
    const again = await tp.json(`/v1/content/articles/${art.id}/publish`, { method: 'POST', token: writer })
    expect(again.body.published_at).toBe(published.body.published_at)
    const pubEvents = await forArticle('content.published')
    expect(pubEvents).toHaveLength(1)
    // Exactly the spec's data.
    expect(pubEvents[0]!.data).toEqual({
      article_id: art.id,
      title: 'Final',
      site_id: s.id,
      published_at: published.body.published_at,
    })

    const got = await tp.json(`/v1/content/articles/${art.id}`, { token: reader })
    expect(got.body).toMatchObject({ id: art.id, body: 'text', status: 'published' })

    expect(
      (await tp.json(`/v1/content/articles/${art.id}`, { method: 'DELETE', token: writer })).status,
    ).toBe(204)
    expect((await forArticle('content.updated')).map((e) => e.data.change)).toEqual([
      'created',
      'updated',
      'deleted',
    ])
    expect((await tp.json(`/v1/content/articles/${art.id}`, { token: reader })).status).toBe(404)
  })

  it('publishes exactly once when two publishes race', async (ctx) => {
    needsRealConcurrency(ctx)
    const art = await article((await site()).id)
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        tp.json(`/v1/content/articles/${art.id}/publish`, { method: 'POST', token: writer }),
      ),
    )
    expect(results.every((r) => r.status === 200)).toBe(true)
    expect(
      (await eventsOf(a.tenantId, 'content.published')).filter((e) => e.data.article_id === art.id),
    ).toHaveLength(1)
  })

  it.each([
    ['missing site_id', { title: 'x' }, 'site_id'],
    ['empty title', { site_id: '00000000-0000-4000-8000-000000000000', title: '' }, 'title'],
    ['long title', { site_id: '00000000-0000-4000-8000-000000000000', title: 'x'.repeat(501) }, 'title'],
    [
      'status set directly',
      { site_id: '00000000-0000-4000-8000-000000000000', title: 'x', status: 'published' },
      '(body)',
    ],
  ])('refuses %s with 400', async (_n, body, field) => {
    const res = await tp.json('/v1/content/articles', { token: writer, body })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
  })

  it('refuses an empty PATCH and an article in an unknown site', async () => {
    const art = await article((await site()).id)
    expect(
      (await tp.json(`/v1/content/articles/${art.id}`, { method: 'PATCH', token: writer, body: {} })).status,
    ).toBe(400)
    const res = await tp.json('/v1/content/articles', {
      token: writer,
      body: { site_id: '00000000-0000-4000-8000-000000000000', title: 'x' },
    })
    expect(res.status).toBe(404)
  })
})

describe('GET /v1/content filters', () => {
  it('filters by site, status and published since', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
    const s1 = await site(t.token, { name: 'One' })
    const s2 = await site(t.token, { name: 'Two' })
    const a1 = await article(s1.id, t.token, 'a1')
    const a2 = await article(s1.id, t.token, 'a2')
    const a3 = await article(s2.id, t.token, 'a3')
    await tp.db
      .sql`update public.articles set status = 'published', published_at = '2026-01-01T00:00:00Z' where id = ${a1.id}`
    await tp.db
      .sql`update public.articles set status = 'published', published_at = '2026-06-01T00:00:00Z' where id = ${a3.id}`
    const ids = async (q: string) =>
      ((await tp.json(`/v1/content?${q}`, { token: t.token })).body.data as { id: string }[]).map((r) => r.id)
    expect(await ids(`site_id=${s1.id}`)).toEqual([s1.id, a1.id, a2.id])
    expect(await ids('status=draft')).toEqual([a2.id])
    expect(await ids('status=published')).toEqual([a1.id, a3.id])
    expect(await ids(`published_since=${encodeURIComponent('2026-03-01T00:00:00Z')}`)).toEqual([a3.id])
    expect(await ids('type=site')).toEqual([s1.id, s2.id])
    expect((await tp.json('/v1/content?status=archived', { token: t.token })).status).toBe(400)
  })
})

describe('tenant isolation', () => {
  it("keeps tenant B away from tenant A's sites and articles", async () => {
    const s = await site()
    const art = await article(s.id)
    const list = await tp.json('/v1/content', { token: b.token })
    expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(s.id)
    const cases = [
      tp.json(`/v1/content/articles/${art.id}`, { token: b.token }),
      tp.json(`/v1/content/articles/${art.id}`, {
        method: 'PATCH',
        token: b.token,
        body: { title: 'pwned' },
      }),
      tp.json(`/v1/content/articles/${art.id}/publish`, { method: 'POST', token: b.token }),
      tp.json(`/v1/content/articles/${art.id}`, { method: 'DELETE', token: b.token }),
      tp.json(`/v1/content/sites/${s.id}`, { method: 'DELETE', token: b.token }),
      tp.json('/v1/content/articles', { token: b.token, body: { site_id: s.id, title: 'intruder' } }),
    ]
    for (const res of await Promise.all(cases)) expect(res.status).toBe(404)
    const [row] = await tp.db.sql`select title, status from public.articles where id = ${art.id}`
    expect(row).toEqual({ title: 'Draft', status: 'draft' })
    expect(await outbox(tp, b.tenantId)).toHaveLength(0)
  })
})

describe('sites: read with counts, edit', () => {
  it('reads a site with what deleting it removes, and edits its name and domain', async () => {
    const s = await site(writer, { name: 'Counted', domain: 'counted.example.com' })
    const published = await article(s.id)
    await article(s.id)
    await tp.json(`/v1/content/articles/${published.id}/publish`, { method: 'POST', token: writer })
    const [source] = await tp.db.sql<{ id: string }[]>`
      insert into public.sources (tenant_id, site_id, name, kind, config)
      values (${a.tenantId}, ${s.id}, 'Feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
    await tp.db.sql`
      insert into public.source_items (tenant_id, source_id, external_id, title)
      select ${a.tenantId}, ${source!.id}, 'i' || n, 'Item ' || n from generate_series(1, 3) n`
    const detail = await tp.json(`/v1/content/sites/${s.id}`, { token: reader })
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({
      object: 'site',
      id: s.id,
      name: 'Counted',
      domain: 'counted.example.com',
    })
    expect(detail.body.counts).toEqual({
      articles: 2,
      drafts: 1,
      scheduled: 0,
      published: 1,
      sources: 1,
      source_items: 3,
      affiliate_destinations: 0,
    })

    const renamed = await tp.json(`/v1/content/sites/${s.id}`, {
      method: 'PATCH',
      token: writer,
      body: { name: 'Renamed' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ name: 'Renamed', domain: 'counted.example.com' })
    const undomained = await tp.json(`/v1/content/sites/${s.id}`, {
      method: 'PATCH',
      token: writer,
      body: { domain: null },
    })
    expect(undomained.body).toMatchObject({ name: 'Renamed', domain: null })
    expect(undomained.body.updated_at >= renamed.body.updated_at).toBe(true)
  })

  it.each([
    ['nothing to change', {}, '(body)'],
    ['an empty name', { name: ' ' }, 'name'],
    ['a bad domain', { domain: 'http://x' }, 'domain'],
    ['an unknown field', { theme: 'dark' }, '(body)'],
  ])('refuses an edit with %s (400) and changes nothing', async (_n, body, field) => {
    const s = await site(writer, { name: 'Kept' })
    const res = await tp.json(`/v1/content/sites/${s.id}`, { method: 'PATCH', token: writer, body })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    expect((await tp.json(`/v1/content/sites/${s.id}`, { token: reader })).body.name).toBe('Kept')
  })

  it("keeps other tenants' sites out of reach (404) and edits need content:write (403)", async () => {
    const s = await site()
    expect((await tp.json(`/v1/content/sites/${s.id}`, { token: b.token })).status).toBe(404)
    const patch = await tp.json(`/v1/content/sites/${s.id}`, {
      method: 'PATCH',
      token: b.token,
      body: { name: 'Taken' },
    })
    expect(patch.status).toBe(404)
    const refused = await tp.json(`/v1/content/sites/${s.id}`, {
      method: 'PATCH',
      token: reader,
      body: { name: 'Taken' },
    })
    expect(refused.status).toBe(403)
    expect((await tp.json(`/v1/content/sites/${s.id}`, { token: reader })).body.name).toBe('Blog')
  })
})

describe('articles: unpublish and the items a draft came from', () => {
  it('takes a published article back to draft once, with content.unpublished and content.updated', async () => {
    const art = await article((await site()).id)
    const published = await tp.json(`/v1/content/articles/${art.id}/publish`, {
      method: 'POST',
      token: writer,
    })
    expect(published.body.status).toBe('published')
    const drafts = await Promise.all(
      [1, 2, 3].map(() =>
        tp.json(`/v1/content/articles/${art.id}/unpublish`, { method: 'POST', token: writer }),
      ),
    )
    for (const d of drafts) expect(d.body).toMatchObject({ status: 'draft', published_at: null })
    const unpublished = (await eventsOf(a.tenantId, 'content.unpublished')).filter(
      (e) => e.data.article_id === art.id,
    )
    expect(unpublished).toHaveLength(1)
    expect(unpublished[0]!.data).toMatchObject({ previous_status: 'published', slug: 'draft' })
    const updates = (await eventsOf(a.tenantId, 'content.updated')).filter(
      (e) => e.data.article_id === art.id && e.data.change === 'updated',
    )
    expect(updates).toHaveLength(1)
    expect(updates[0]!.data).toMatchObject({
      status: 'draft',
      changed_fields: ['status', 'published_at', 'publish_at'],
    })
    // Published again: a second content.published.
    await tp.json(`/v1/content/articles/${art.id}/publish`, { method: 'POST', token: writer })
    expect(
      (await eventsOf(a.tenantId, 'content.published')).filter((e) => e.data.article_id === art.id),
    ).toHaveLength(2)
    expect(
      (await tp.json(`/v1/content/articles/${art.id}/unpublish`, { method: 'POST', token: b.token })).status,
    ).toBe(404)
    expect(
      (await tp.json(`/v1/content/articles/${art.id}/unpublish`, { method: 'POST', token: reader })).status,
    ).toBe(403)
  })

  it('lists the source items a generated article was written from, none for one written by hand', async () => {
    const s = await site()
    const byHand = await article(s.id)
    expect((await tp.json(`/v1/content/articles/${byHand.id}/sources`, { token: reader })).body).toEqual({
      data: [],
    })
    const generated = await article(s.id, writer, 'Generated')
    const [source] = await tp.db.sql<{ id: string }[]>`
      insert into public.sources (tenant_id, site_id, name, kind, config)
      values (${a.tenantId}, ${s.id}, 'Company feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
    const items = await tp.db.sql<{ id: string }[]>`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, author, published_at)
      select ${a.tenantId}, ${source!.id}, 'i' || n, 'https://example.com/p/' || n, 'Post ' || n, 'Ada',
             '2026-11-20T00:00:00Z'::timestamptz + make_interval(hours => 3 - n)
      from generate_series(1, 2) n returning id`
    for (const item of items)
      await tp.db.sql`insert into public.article_source_items (tenant_id, article_id, item_id)
                      values (${a.tenantId}, ${generated.id}, ${item.id})`
    const res = await tp.json(`/v1/content/articles/${generated.id}/sources`, { token: reader })
    expect(res.status).toBe(200)
    // Oldest first, as the model saw them.
    expect(res.body.data).toEqual([
      {
        id: items[1]!.id,
        source_id: source!.id,
        source_name: 'Company feed',
        url: 'https://example.com/p/2',
        title: 'Post 2',
        author: 'Ada',
        published_at: '2026-11-20T01:00:00.000Z',
      },
      expect.objectContaining({ id: items[0]!.id, title: 'Post 1' }),
    ])
    expect((await tp.json(`/v1/content/articles/${generated.id}/sources`, { token: b.token })).status).toBe(
      404,
    )
  })
})

describe('GET /v1/content search and order', () => {
  it('walks every page of the feed in both orders, each row once, through ties in created_at and across sites and articles', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
    // Two sites and 45 articles written in one statement each: whole runs of rows share a
    // created_at, so only the id orders them, and the page boundaries fall inside those runs.
    const sites = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) select ${t.tenantId}, 'Site ' || g from generate_series(1, 2) g
      returning id`
    await tp.db.sql`
      insert into public.articles (tenant_id, site_id, title)
      select ${t.tenantId}, ${sites[0]!.id}, 'Article ' || g from generate_series(1, 45) g`
    const expected = (
      await tp.db.sql<{ id: string }[]>`
        select id from (select id, created_at from public.sites where tenant_id = ${t.tenantId}
                        union all select id, created_at from public.articles where tenant_id = ${t.tenantId}) c
        order by created_at, id`
    ).map((r) => r.id)
    expect(expected).toHaveLength(47)
    for (const order of ['oldest', 'newest'] as const) {
      const seen: string[] = []
      let cursor: string | null = null
      for (let page = 0; page < 20; page++) {
        const res: { status: number; body: { data: { id: string }[]; next_cursor: string | null } } =
          await tp.json(`/v1/content?limit=7&order=${order}${cursor ? `&cursor=${cursor}` : ''}`, {
            token: t.token,
          })
        expect(res.status).toBe(200)
        seen.push(...res.body.data.map((r) => r.id))
        cursor = res.body.next_cursor
        if (!cursor) break
      }
      expect(seen, order).toEqual(order === 'oldest' ? expected : [...expected].reverse())
    }
  })

  it('finds sites by name and articles by title, every word, literally; newest first on request', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
    const s = await site(t.token, { name: 'Edge notes' })
    const a1 = await article(s.id, t.token, 'Edge functions in practice')
    const a2 = await article(s.id, t.token, 'Costs: 100% of the edge')
    const a3 = await article(s.id, t.token, 'Cold starts')
    const ids = async (q: string) =>
      ((await tp.json(`/v1/content?${q}`, { token: t.token })).body.data as { id: string }[]).map((r) => r.id)
    expect(await ids('q=edge')).toEqual([s.id, a1.id, a2.id])
    expect(await ids('q=EDGE%20practice')).toEqual([a1.id])
    expect(await ids('type=article&q=edge')).toEqual([a1.id, a2.id])
    // % and _ are themselves, not wildcards.
    expect(await ids(`q=${encodeURIComponent('100%')}`)).toEqual([a2.id])
    expect(await ids(`q=${encodeURIComponent('_')}`)).toEqual([])
    expect(await ids('type=article&order=newest')).toEqual([a3.id, a2.id, a1.id])
    // Pages newest first carry on where the last one stopped.
    const first = await tp.json('/v1/content?type=article&order=newest&limit=2', { token: t.token })
    const next = await tp.json(
      `/v1/content?type=article&order=newest&limit=2&cursor=${first.body.next_cursor}`,
      {
        token: t.token,
      },
    )
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual([a1.id])
    expect((await tp.json('/v1/content?order=sideways', { token: t.token })).status).toBe(400)
    expect((await tp.json(`/v1/content?q=${'x'.repeat(201)}`, { token: t.token })).status).toBe(400)
  })
})
