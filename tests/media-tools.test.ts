import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

// The media library through the tool server (the assistant's tools are the same set): list it and
// set a feature image from it; no upload tool; another tenant's image is never reached.

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

async function upload(t: TestTenant, name: string, alt: string): Promise<string> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#6a4' } })
    .png()
    .toBuffer()
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  form.append('alt_text', alt)
  const res = await tp.request('/v1/content/media', { method: 'POST', token: t.token, body: form })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(201)
  return body.id
}

async function toolKey(t: TestTenant): Promise<string> {
  const made = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'tools',
      environment: 'production',
      kind: 'tool_server',
      scopes: ['content:read', 'content:write'],
      rate_limit_per_minute: 100,
    },
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return made.body.key as string
}

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())
afterAll(async () => tp?.close())

describe('media tools', () => {
  it('lists the tenant library, sets a feature image from it, and reaches no other tenant', async () => {
    const garden = await upload(a, 'garden.png', 'A garden in spring')
    await upload(a, 'kitchen.png', 'A kitchen')
    const foreign = await upload(b, 'garden.png', "B's garden")
    const key = await toolKey(a)
    const call = (tool: string, params: Record<string, unknown>) =>
      tp.json('/mcp/tools/execute', { token: key, body: { tool, params } })

    const tools = await tp.json('/mcp/tools/list', { token: key })
    const names = (tools.body.tools as { name: string }[]).map((x) => x.name)
    expect(names).toEqual(expect.arrayContaining(['platform:list_media', 'platform:set_feature_image']))
    expect(names.filter((n) => /upload/.test(n))).toEqual([])

    const all = await call('platform:list_media', {})
    expect(all.status, JSON.stringify(all.body)).toBe(200)
    expect(all.body.result.items.map((m: { id: string }) => m.id).sort()).toEqual(
      [garden, (all.body.result.items as { id: string }[]).find((m) => m.id !== garden)!.id].sort(),
    )
    expect(JSON.stringify(all.body.result)).not.toContain(foreign)
    const found = await call('platform:list_media', { q: 'spring' })
    expect(found.body.result.items).toMatchObject([
      { id: garden, reference: `media:${garden}`, alt_text: 'A garden in spring', width: 40, height: 30 },
    ])

    const site = await tp.json('/v1/content/sites', { token: a.token, body: { name: 'Garden' } })
    expect(site.status, JSON.stringify(site.body)).toBe(201)
    const article = await tp.json('/v1/content/articles', {
      token: a.token,
      body: { site_id: site.body.id, title: 'Spring', body: 'Roses.' },
    })
    expect(article.status, JSON.stringify(article.body)).toBe(201)

    // Another tenant's image: not found, and the article is as it was.
    const refused = await call('platform:set_feature_image', {
      article_id: article.body.id,
      media_id: foreign,
    })
    expect([refused.status, refused.body.code]).toEqual([404, 'NOT_FOUND'])
    const unchanged = await tp.json(`/v1/content/articles/${article.body.id}`, { token: a.token })
    expect(unchanged.body.feature_image).toBeNull()

    const set = await call('platform:set_feature_image', { article_id: article.body.id, media_id: garden })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.result.feature_image).toEqual({ url: `media:${garden}`, alt: 'A garden in spring' })
    const read = await tp.json(`/v1/content/articles/${article.body.id}`, { token: a.token })
    expect(read.body.feature_image).toEqual({ url: `media:${garden}`, alt: 'A garden in spring' })

    // In use now: the library refuses to delete it.
    const del = await tp.json(`/v1/content/media/${garden}`, { method: 'DELETE', token: a.token })
    expect([del.status, del.body.code]).toEqual([409, 'CONFLICT'])

    const bad = await call('platform:set_feature_image', { article_id: article.body.id, media_id: 'x' })
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])
  })
})
