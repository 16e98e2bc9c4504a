// The excerpt derived from an article's body is stored when the body is written
// (articles.body_excerpt, migration 20261207040000), so a read does not parse the markdown; a body
// written without it (SQL by hand, a job) is derived on read as before, never described by another
// body's excerpt.
import { excerptOf } from '@shared/services/content/render.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let tenant: TestTenant
let key: string
let siteId: string

beforeAll(async () => {
  tp = await startTestPlatform()
  tenant = await tp.createTenant()
  const made = await tp.json('/api/api-keys', {
    token: tenant.token,
    body: {
      name: 'k',
      environment: 'production',
      scopes: ['content:read', 'content:write'],
      rate_limit_per_minute: 1000,
    },
  })
  key = made.body.key
  siteId = (await tp.json('/v1/content/sites', { token: key, body: { name: 'Excerpts' } })).body.id
})
afterAll(() => tp.close())

const stored = async (id: string) =>
  (
    await tp.db.sql<
      { body_excerpt: string | null }[]
    >`select body_excerpt from public.articles where id = ${id}`
  )[0]!.body_excerpt

describe('the stored excerpt', () => {
  it('is written with the body, answered by the reads, and dropped when the body changes without it', async () => {
    const body = '# Title\n\nThe *first* paragraph, with [a link](https://example.com).\n\nThe second.'
    const made = await tp.json('/v1/content/articles', {
      token: key,
      body: { site_id: siteId, title: 'One', body },
    })
    expect(made.status).toBe(201)
    expect(made.body.excerpt).toBe(excerptOf(body))
    expect(await stored(made.body.id)).toBe(excerptOf(body))

    const edited = '# Title\n\nAnother opening.'
    const patched = await tp.json(`/v1/content/articles/${made.body.id}`, {
      method: 'PATCH',
      token: key,
      body: { body: edited },
    })
    expect(patched.status).toBe(200)
    expect(await stored(made.body.id)).toBe(excerptOf(edited))

    // The reads answer the stored one: a stored excerpt that matches the body's md5 is taken as is.
    await tp.db
      .sql`update public.articles set body_excerpt = 'Stored at write time', body_excerpt_md5 = md5(body)
      where id = ${made.body.id}`
    const bySlug = `/v1/content/sites/${siteId}/articles/${made.body.slug}`
    expect((await tp.json(bySlug, { token: key })).body.excerpt).toBe('Stored at write time')
    expect((await tp.json(`/v1/content/articles/${made.body.id}`, { token: key })).body.excerpt).toBe(
      'Stored at write time',
    )

    // A body written without its excerpt: the stale one is cleared and the read derives it.
    const byHand = 'Written by hand, in SQL.'
    await tp.db.sql`update public.articles set body = ${byHand} where id = ${made.body.id}`
    expect(await stored(made.body.id)).toBeNull()
    expect((await tp.json(bySlug, { token: key })).body.excerpt).toBe(excerptOf(byHand))
    // A custom excerpt still wins.
    await tp.json(`/v1/content/articles/${made.body.id}`, {
      method: 'PATCH',
      token: key,
      body: { excerpt: 'Mine' },
    })
    expect((await tp.json(bySlug, { token: key })).body.excerpt).toBe('Mine')
  })
})
