import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { seedEveryTenantTable } from './support/tenant-fixtures.ts'

/**
 * A published-only key is a caller of its own kind (docs/adr/0029-published-only-key-is-its-own-caller.md):
 * the routes that read published content name it, every other route refuses it with 403, whatever
 * its scope would allow. Over real HTTP, against a tenant with a row in every table.
 */

let tp: TestPlatform
let owner: TestTenant
let publishedOnly: string
let reader: string
let ids: Record<string, string>

beforeAll(async () => {
  tp = await startTestPlatform()
  owner = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${owner.tenantId}`
  ids = await seedEveryTenantTable(tp, owner)
  const key = async (extra: Record<string, unknown>) => {
    const res = await tp.json('/api/api-keys', {
      token: owner.token,
      body: {
        name: 'reader',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 1000,
        ...extra,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.key as string
  }
  publishedOnly = await key({ published_only: true })
  reader = await key({})
}, 60_000)
afterAll(() => tp?.close())

describe('a published-only key', () => {
  it('is refused 403 by the routes that take content:read keys but do not read published content', async () => {
    const paths = [
      '/api/commerce/orders',
      '/v1/commerce/orders',
      '/api/commerce/products',
      '/api/sources',
      `/api/sources/${ids.source}`,
      `/api/sources/${ids.source}/items`,
      '/api/jobs',
      `/api/jobs/${ids.job}`,
      '/api/affiliate/destinations',
      `/api/affiliate/destinations/${ids.affiliateDestination}`,
      `/api/affiliate/products?destination_id=${ids.affiliateDestination}`,
      `/v1/content/articles/${ids.article}/revisions`,
      `/v1/content/articles/${ids.article}/sources`,
    ]
    for (const path of paths) {
      // A content:read key made without published_only reads them: the refusal is the kind's.
      const asReader = await tp.json(path, { token: reader })
      expect(asReader.status, `${path} as a content:read key: ${JSON.stringify(asReader.body)}`).toBe(200)
      const res = await tp.json(path, { token: publishedOnly })
      expect([res.status, res.body?.code], `${path}: ${JSON.stringify(res.body)}`).toEqual([
        403,
        'INSUFFICIENT_PERMISSIONS',
      ])
      expect(res.body.message).toMatch(/published-only key/)
      // Nothing of what the route holds is in the answer (a feed URL's token, an order's total).
      expect(JSON.stringify(res.body)).not.toMatch(/fixture/i)
    }
  })

  it('still reads the published content routes it is named on', async () => {
    const site = await tp.json(`/v1/content/sites/${ids.site}`, { token: publishedOnly })
    expect(site.status, JSON.stringify(site.body)).toBe(200)
    for (const path of ['/v1/content', '/v1/content/tags']) {
      const res = await tp.json(path, { token: publishedOnly })
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
    }
  })
})

describe('tags for a published-only key', () => {
  it('lists the tags of published articles only, not one that only a draft carries', async () => {
    const post = (path: string, body?: unknown) =>
      tp.json(path, { token: owner.token, body: body ?? {}, method: 'POST' })
    const embargo = (await post('/v1/content/tags', { name: 'Embargo March launch' })).body
    const announced = (await post('/v1/content/tags', { name: 'Announced' })).body
    const draft = (
      await post('/v1/content/articles', {
        site_id: ids.site,
        title: 'Coming in March',
        body: 'secret',
        tags: [embargo.slug, announced.slug],
      })
    ).body
    const live = (
      await post('/v1/content/articles', {
        site_id: ids.site,
        title: 'Out now',
        body: 'public',
        tags: [announced.slug],
      })
    ).body
    expect((await post(`/v1/content/articles/${live.id}/publish`)).status).toBe(200)

    const slugsFor = async (token: string) => {
      const res = await tp.json('/v1/content/tags?limit=100', { token })
      expect(res.status).toBe(200)
      return res.body.data.map((t: { slug: string }) => t.slug) as string[]
    }
    const publicSlugs = await slugsFor(publishedOnly)
    expect(publicSlugs).toContain(announced.slug)
    expect(publicSlugs).not.toContain(embargo.slug)
    // The fixture tag is carried by the fixture draft only.
    expect(publicSlugs).not.toContain('fixture-tag')
    expect((await tp.json(`/v1/content/tags/${embargo.id}`, { token: publishedOnly })).status).toBe(404)
    expect((await tp.json(`/v1/content/tags/${announced.id}`, { token: publishedOnly })).status).toBe(200)
    // A key that reads drafts lists both.
    expect(await slugsFor(reader)).toEqual(expect.arrayContaining([embargo.slug, announced.slug]))

    // Once the draft is published, its tag is the public's too; unpublished again, it is not.
    expect((await post(`/v1/content/articles/${draft.id}/publish`)).status).toBe(200)
    expect(await slugsFor(publishedOnly)).toContain(embargo.slug)
    expect((await post(`/v1/content/articles/${draft.id}/unpublish`)).status).toBe(200)
    expect(await slugsFor(publishedOnly)).not.toContain(embargo.slug)
  })
})
