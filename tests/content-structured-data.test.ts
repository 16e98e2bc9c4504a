// Structured data in the read by slug (docs/content.md): include=seo gives the canonical and
// alternate URLs and a schema.org Article/NewsArticle object with the fields search engines ask
// for, built from the article and the site's settings, for a published-only key as for a member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let t: TestTenant
let publicKey: string
let siteId: string
const clock = new TestClock(new Date('2026-12-01T09:00:00Z'))

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/**
 * The schema.org Article fields search engines require or recommend, checked by type: @context and
 * a CreativeWork type, headline (at most 110 characters), image (URLs), datePublished and
 * dateModified (ISO 8601), author (Person with name), publisher (Organization with name).
 */
function expectValidArticle(ld: Record<string, any>, type: string, opts: { published: boolean }) {
  expect(ld['@context']).toBe('https://schema.org')
  expect(ld['@type']).toBe(type)
  expect(typeof ld.headline).toBe('string')
  expect(ld.headline.length).toBeGreaterThan(0)
  expect(ld.headline.length).toBeLessThanOrEqual(110)
  expect(ld.dateModified).toMatch(ISO)
  if (opts.published) expect(ld.datePublished).toMatch(ISO)
  else expect(ld.datePublished).toBeUndefined()
  for (const url of ld.image) expect(new URL(url).protocol).toBe('https:')
  expect(ld.author.length).toBeGreaterThan(0)
  for (const author of ld.author) {
    expect(author['@type']).toBe('Person')
    expect(author.name.length).toBeGreaterThan(0)
  }
  expect(ld.publisher['@type']).toBe('Organization')
  expect(ld.publisher.name.length).toBeGreaterThan(0)
}

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  t = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
  const key = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'site',
      environment: 'production',
      scopes: ['content:read'],
      published_only: true,
      rate_limit_per_minute: 1000,
    },
  })
  expect(key.status).toBe(201)
  publicKey = key.body.key
  const site = await tp.json('/v1/content/sites', {
    token: t.token,
    body: {
      name: 'Daily Garden',
      domain: 'garden.example.com',
      article_url_pattern: 'https://garden.example.com/news/{slug}',
      article_schema_type: 'NewsArticle',
      public_feeds: true,
    },
  })
  expect(site.status, JSON.stringify(site.body)).toBe(201)
  siteId = site.body.id
  await tp.json('/v1/content/tags', { token: t.token, body: { name: 'Roses' } })
})
afterAll(() => tp?.close())

async function article(body: Record<string, unknown>, publish = true) {
  const res = await tp.json('/v1/content/articles', { token: t.token, body: { site_id: siteId, ...body } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  if (publish)
    await tp.json(`/v1/content/articles/${res.body.id}/publish`, { method: 'POST', token: t.token })
  return res.body
}

describe('structured data in the read by slug', () => {
  it('gives a NewsArticle with headline, dates, author, image and publisher, and the canonical and alternate URLs', async () => {
    await article({
      title: 'Roses in December',
      body: 'Cut them back **now**.',
      tags: ['roses'],
      feature_image: { url: 'https://images.example.com/roses.jpg', alt: 'Roses' },
    })
    const res = await tp.json(`/v1/content/sites/${siteId}/articles/roses-in-december?include=seo`, {
      token: publicKey,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const { seo } = res.body
    expect(seo.canonical_url).toBe('https://garden.example.com/news/roses-in-december')
    expect(seo.alternates.map((a: { type: string }) => a.type)).toEqual([
      'application/rss+xml',
      'application/atom+xml',
      'application/feed+json',
    ])
    expect(seo.alternates[0].href).toMatch(new RegExp(`/feeds/${siteId}/rss\\.xml$`))
    expectValidArticle(seo.json_ld, 'NewsArticle', { published: true })
    expect(seo.json_ld).toMatchObject({
      headline: 'Roses in December',
      datePublished: res.body.published_at,
      dateModified: res.body.updated_at,
      image: ['https://images.example.com/roses.jpg'],
      author: [{ '@type': 'Person', name: res.body.author.name }],
      publisher: { '@type': 'Organization', name: 'Daily Garden', url: 'https://garden.example.com/' },
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://garden.example.com/news/roses-in-december' },
      keywords: 'Roses',
    })
    const plain = await tp.json(`/v1/content/sites/${siteId}/articles/roses-in-december`, {
      token: publicKey,
    })
    expect(plain.body.seo).toBeUndefined()
  })

  it('names an article’s own canonical_url, with its address on the site as an alternate, and cuts a long headline', async () => {
    await article({
      title: `A very long title ${'about roses '.repeat(15)}`.trim(),
      slug: 'syndicated',
      canonical_url: 'https://origin.example.org/roses',
      feature_image: { url: 'https://images.example.com/r.jpg', alt: '' },
    })
    const { body } = await tp.json(`/v1/content/sites/${siteId}/articles/syndicated?include=seo`, {
      token: publicKey,
    })
    expect(body.seo.canonical_url).toBe('https://origin.example.org/roses')
    expect(body.seo.alternates[0]).toEqual({
      href: 'https://garden.example.com/news/syndicated',
      type: 'text/html',
    })
    expectValidArticle(body.seo.json_ld, 'NewsArticle', { published: true })
    expect(body.seo.json_ld.headline.endsWith('…')).toBe(true)
  })

  it('gives a member’s read of a draft no datePublished, and refuses an unknown include', async () => {
    await article(
      { title: 'Not yet', feature_image: { url: 'https://images.example.com/n.jpg', alt: '' } },
      false,
    )
    const draft = await tp.json(`/v1/content/sites/${siteId}/articles/not-yet?include=seo`, {
      token: t.token,
    })
    expect(draft.status).toBe(200)
    expectValidArticle(draft.body.seo.json_ld, 'NewsArticle', { published: false })
    const hidden = await tp.json(`/v1/content/sites/${siteId}/articles/not-yet?include=seo`, {
      token: publicKey,
    })
    expect(hidden.status).toBe(404)
    const bad = await tp.json(`/v1/content/sites/${siteId}/articles/not-yet?include=everything`, {
      token: t.token,
    })
    expect([bad.status, bad.body.details?.[0]?.field]).toEqual([400, 'include'])
  })
})
