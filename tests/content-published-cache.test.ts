// The published-read cache (shared/infra/hot-path/published-reads.ts): an instance answers a
// published-only key from its recent answer to the same read for at most CONTENT_READ_CACHE_MS,
// forgets a tenant's answers when it writes that tenant's content, and never hands them to any
// other caller: not to a key that reads drafts, not to another tenant's published-only key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { waitFor } from './support/webhook-receiver.ts'

const BOUND_MS = 600
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let writer: string
let reader: string
let publicKey: string
let otherPublicKey: string
let siteId: string

async function key(t: TestTenant, body: Record<string, unknown>) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: { name: 'k', environment: 'production', rate_limit_per_minute: 1000, ...body },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, env: { CONTENT_READ_CACHE_MS: String(BOUND_MS) } })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id in (${a.tenantId}, ${b.tenantId})`
  writer = await key(a, { scopes: ['content:read', 'content:write'] })
  reader = await key(a, { scopes: ['content:read'] })
  publicKey = await key(a, { scopes: ['content:read'], published_only: true })
  otherPublicKey = await key(b, { scopes: ['content:read'], published_only: true })
  siteId = (await tp.json('/v1/content/sites', { token: writer, body: { name: 'Cache Blog' } })).body.id
})
afterAll(() => tp.close())

const bySlug = (slug: string) => `/v1/content/sites/${siteId}/articles/${slug}`
const title = async (path: string, token: string, instance: number) => {
  const res = await tp.json(path, { token, instance })
  return res.status === 200 ? (res.body.title as string) : res.status
}

async function published(name: string): Promise<{ id: string; slug: string }> {
  const made = await tp.json('/v1/content/articles', {
    token: writer,
    body: { site_id: siteId, title: name, body: 'Hello.' },
  })
  expect(made.status).toBe(201)
  expect(
    (await tp.json(`/v1/content/articles/${made.body.id}/publish`, { method: 'POST', token: writer })).status,
  ).toBe(200)
  return made.body
}

describe('the published-read cache', () => {
  it("answers a published-only key from the instance's recent read for at most its bound, and a write through the instance forgets it", async () => {
    const article = await published('First take')
    const path = bySlug(article.slug)
    // Both instances read (and keep the answer); the edit goes through instance 0.
    expect(await title(path, publicKey, 0)).toBe('First take')
    expect(await title(path, publicKey, 1)).toBe('First take')
    const edited = await tp.json(`/v1/content/articles/${article.id}`, {
      method: 'PATCH',
      token: writer,
      instance: 0,
      body: { title: 'Second take' },
    })
    expect(edited.status).toBe(200)
    // Instance 0 wrote it: its answers show the edit at once.
    expect(await title(path, publicKey, 0)).toBe('Second take')
    // Instance 1 may still answer with what it read, within its bound ...
    expect(await title(path, publicKey, 1)).toBe('First take')
    // ... but a key that reads drafts never gets that answer, on any instance.
    expect(await title(path, reader, 1)).toBe('Second take')
    // Past the bound, instance 1 reads again.
    await waitFor(
      async () => (await title(path, publicKey, 1)) === 'Second take',
      BOUND_MS + 2000,
      'the bound',
    )

    // Instance 1 keeps that answer again; unpublished through instance 1, its next public read
    // is 404 at once.
    expect(await title(path, publicKey, 1)).toBe('Second take')
    const back = await tp.json(`/v1/content/articles/${article.id}/unpublish`, {
      method: 'POST',
      token: writer,
      instance: 1,
    })
    expect(back.status).toBe(200)
    expect(await title(path, publicKey, 1)).toBe(404)
  })

  it("never answers another tenant's published-only key from a tenant's reads", async () => {
    const article = await published('Only for tenant A')
    const path = bySlug(article.slug)
    expect(await title(path, publicKey, 0)).toBe('Only for tenant A')
    expect(await title(path, otherPublicKey, 0)).toBe(404)
    // The list too: same path and query, another tenant, nothing of A's.
    const listA = await tp.json(`/v1/content?site_id=${siteId}`, { token: publicKey })
    expect(listA.body.data.map((x: { title: string }) => x.title)).toContain('Only for tenant A')
    const listB = await tp.json(`/v1/content?site_id=${siteId}`, { token: otherPublicKey })
    expect(listB.body.data).toEqual([])
  })

  it('keeps the ETag of the answer it serves: 304 to If-None-Match from memory as from the database', async () => {
    const article = await published('Tagged once')
    const path = bySlug(article.slug)
    const first = await tp.request(path, { token: publicKey, instance: 1 })
    const etag = first.headers.get('etag')!
    expect(first.status).toBe(200)
    const again = await tp.request(path, {
      token: publicKey,
      instance: 1,
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/)
  })
})
