// Preview links (docs/content.md, docs/adr/0033-public-feeds.md "Preview links"), over real HTTP:
// an editor makes a link to a draft and to a published article's unpublished edits; anyone reads
// it without an account (private, no-store, never in the published-read cache) until it expires
// (the platform's clock moved) or is revoked; a token never reaches another tenant's article;
// malformed, unknown, revoked and expired tokens answer the same 404; a published-only key and a
// contributor make none; the read is rate-limited per client address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let siteId: string
let publishedOnlyKey: string
const clock = new TestClock(new Date('2026-12-01T09:00:00Z'))
let client = 0
/** Each read comes from its own client address, so the rate limit is met only where it is tested. */
const reader = () => ({ 'x-test-client': `198.51.100.${++client}` })
const DAY = 86_400_000

async function draft(tenant: TestTenant, site: string, title: string) {
  const res = await tp.json('/v1/content/articles', {
    token: tenant.token,
    body: { site_id: site, title, body: `The **${title}** text.` },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; slug: string }
}

async function makePreview(tenant: TestTenant, articleId: string, body?: unknown) {
  const res = await tp.json(`/v1/content/articles/${articleId}/previews`, {
    method: 'POST',
    token: tenant.token,
    ...(body !== undefined && { body }),
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; token: string; url: string; expires_at: string; token_prefix: string }
}

/** The preview read as someone with no account. */
async function readPreview(token: string, query = '') {
  return tp.json(`/v1/content/previews/${token}${query}`, { headers: reader() })
}

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id in (${a.tenantId}, ${b.tenantId})`
  siteId = (await tp.json('/v1/content/sites', { token: a.token, body: { name: 'Garden Journal' } })).body.id
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
  publishedOnlyKey = keyRes.body.key
})
afterAll(() => tp?.close())

describe('preview links', () => {
  it('show a draft without an account, rendered, private and no-store, stored only as a hash', async () => {
    const article = await draft(a, siteId, 'Spring bulbs')
    const link = await makePreview(a, article.id)
    expect(link.token).toMatch(/^prv_[0-9A-Za-z]{32}$/)
    expect(link.url).toMatch(new RegExp(`/v1/content/previews/${link.token}$`))
    expect(link.token_prefix).toBe(link.token.slice(0, 8))
    expect(new Date(link.expires_at).getTime()).toBe(clock.now().getTime() + 7 * DAY)

    const res = await readPreview(link.token, '?formats=markdown,html')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(res.body).toMatchObject({
      id: article.id,
      status: 'draft',
      title: 'Spring bulbs',
      body: 'The **Spring bulbs** text.',
      preview: { expires_at: link.expires_at },
    })
    expect(res.body.html).toContain('<strong>Spring bulbs</strong>')

    const [stored] = await tp.db.sql<{ token_hash: string }[]>`
      select token_hash from public.article_previews where id = ${link.id}`
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(stored!.token_hash).not.toContain(link.token.slice(4))
  })

  it("show a published article's edits that are not published yet", async () => {
    const article = await draft(a, siteId, 'Roses')
    expect(
      (await tp.json(`/v1/content/articles/${article.id}/publish`, { method: 'POST', token: a.token }))
        .status,
    ).toBe(200)
    const edited = await tp.json(`/v1/content/articles/${article.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { body: 'Roses, edited.' },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    const link = await makePreview(a, article.id)
    const res = await readPreview(link.token)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'published',
      body: 'Roses, edited.',
      edited_since_published: true,
    })
  })

  it('expire at the time asked for, bounded to 30 days', async () => {
    const article = await draft(a, siteId, 'Short lived')
    const link = await makePreview(a, article.id, { expires_in_days: 2 })
    expect((await readPreview(link.token)).status).toBe(200)
    clock.advance(2 * DAY - 1000)
    expect((await readPreview(link.token)).status).toBe(200)
    clock.advance(1000)
    const expired = await readPreview(link.token)
    expect(expired.status).toBe(404)
    expect(expired.body).toMatchObject({ error: expect.any(String), code: 'NOT_FOUND' })
    expect(expired.headers.get('cache-control')).toBe('private, no-store')
    const listed = await tp.json(`/v1/content/articles/${article.id}/previews`, { token: a.token })
    expect(listed.body.data).toEqual([expect.objectContaining({ id: link.id, status: 'expired' })])

    for (const expires_in_days of [0, 31, 1.5, '7'])
      expect(
        (
          await tp.json(`/v1/content/articles/${article.id}/previews`, {
            method: 'POST',
            token: a.token,
            body: { expires_in_days },
          })
        ).status,
      ).toBe(400)
    const rows = await tp.db.sql`select 1 from public.article_previews where article_id = ${article.id}`
    expect(rows.length).toBe(1)
  })

  it('stop at once when revoked, and the list shows it without tokens', async () => {
    const article = await draft(a, siteId, 'Revoked one')
    const link = await makePreview(a, article.id)
    clock.advance(1000)
    const kept = await makePreview(a, article.id)
    expect((await readPreview(link.token)).status).toBe(200)
    const revoked = await tp.json(`/v1/content/articles/${article.id}/previews/${link.id}`, {
      method: 'DELETE',
      token: a.token,
    })
    expect(revoked.status).toBe(204)
    expect((await readPreview(link.token)).status).toBe(404)
    expect((await readPreview(kept.token)).status).toBe(200)
    const listed = await tp.json(`/v1/content/articles/${article.id}/previews`, { token: a.token })
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [kept.id, 'active'],
      [link.id, 'revoked'],
    ])
    expect(JSON.stringify(listed.body)).not.toContain(kept.token)
  })

  it("never reach across tenants: another tenant's article, links and revocation answer 404", async () => {
    const article = await draft(a, siteId, 'Tenant A only')
    const link = await makePreview(a, article.id)
    // B cannot make, list or revoke a link to A's article.
    const made = await tp.json(`/v1/content/articles/${article.id}/previews`, {
      method: 'POST',
      token: b.token,
    })
    expect(made.status).toBe(404)
    expect((await tp.json(`/v1/content/articles/${article.id}/previews`, { token: b.token })).status).toBe(
      404,
    )
    const revoke = await tp.json(`/v1/content/articles/${article.id}/previews/${link.id}`, {
      method: 'DELETE',
      token: b.token,
    })
    expect(revoke.status).toBe(404)
    expect((await readPreview(link.token)).status).toBe(200)
    // A link of B's reads B's article only, whatever id A's article has.
    const bSite = (await tp.json('/v1/content/sites', { token: b.token, body: { name: 'B site' } })).body.id
    const bArticle = await draft(b, bSite, 'Tenant B only')
    const bLink = await makePreview(b, bArticle.id)
    const read = await readPreview(bLink.token)
    expect(read.body).toMatchObject({ id: bArticle.id, title: 'Tenant B only' })
    const count = await tp.db.sql`select 1 from public.article_previews where article_id = ${article.id}`
    expect(count.length).toBe(1)
  })

  it('answer malformed and unknown tokens with the same 404 as revoked ones', async () => {
    for (const token of ['nope', `prv_${'A'.repeat(32)}`, `prv_${'A'.repeat(31)}!`, 'x'.repeat(100)]) {
      const res = await readPreview(encodeURIComponent(token))
      expect(res.status, token).toBe(404)
      expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND', message: 'Preview not found' })
    }
  })

  it("are refused to a published-only key and a contributor, and die with the maker's editor role", async () => {
    const article = await draft(a, siteId, 'Guarded')
    const byKey = await tp.json(`/v1/content/articles/${article.id}/previews`, {
      method: 'POST',
      token: publishedOnlyKey,
    })
    expect(byKey.status).toBe(403)
    const contributor = await addMember(tp, a.tenantId, 'contributor')
    const own = await draft(contributor, siteId, 'Contributor draft')
    const byContributor = await tp.json(`/v1/content/articles/${own.id}/previews`, {
      method: 'POST',
      token: contributor.token,
    })
    expect(byContributor.status).toBe(403)
    expect((await tp.db.sql`select 1 from public.article_previews where article_id = ${own.id}`).length).toBe(
      0,
    )

    const editor = await addMember(tp, a.tenantId, 'member')
    const link = await makePreview(editor, article.id)
    expect((await readPreview(link.token)).status).toBe(200)
    await tp.db.sql`update public.tenant_members set role = 'contributor' where user_id = ${editor.userId}`
    expect((await readPreview(link.token)).status).toBe(404)
  })

  it('are never kept in the published-read cache: an edit shows on the next read', async () => {
    const article = await draft(a, siteId, 'Changing')
    const link = await makePreview(a, article.id)
    expect((await readPreview(link.token)).body.body).toBe('The **Changing** text.')
    // Written behind the API's back: no cache on this instance is told of it.
    await tp.db.sql`update public.articles set body = 'Changed directly.' where id = ${article.id}`
    expect((await readPreview(link.token)).body.body).toBe('Changed directly.')
  })

  it('are rate-limited per client address', async () => {
    const address = { 'x-test-client': '192.0.2.77' }
    let last = 0
    for (let i = 0; i < 61; i++)
      last = (await tp.request(`/v1/content/previews/prv_x${i}`, { headers: address })).status
    expect(last).toBe(429)
    expect((await readPreview('prv_other')).status).toBe(404)
  })
})
