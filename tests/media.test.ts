import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

// The media library over real HTTP: uploads checked from their bytes, bounded by the plan, the
// object in the local Storage under the tenant's prefix, and nothing half-written on a refusal.

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let png: Uint8Array
let jpeg: Uint8Array

const upload = (
  token: string,
  bytes: Uint8Array,
  name = 'photo.png',
  fields: Record<string, string> = {},
) => {
  const form = new FormData()
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name)
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  return fetch(`${tp.baseUrl}/v1/content/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
}

const storedFiles = (dir = tp.storageDir): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? storedFiles(join(dir, e.name)) : [join(dir, e.name)],
      )
    : []
const rowsOf = async (tenantId: string) =>
  (await tp.db.sql`select count(*)::int as n from public.media where tenant_id = ${tenantId}`)[0]!.n as number
const objectsOf = async (tenantId: string) =>
  (await tp.db.sql`select count(*)::int as n from storage.objects where name like ${`${tenantId}/%`}`)[0]!
    .n as number

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  png = new Uint8Array(
    await sharp({ create: { width: 120, height: 80, channels: 3, background: '#48c' } })
      .png()
      .toBuffer(),
  )
  jpeg = new Uint8Array(
    await sharp({ create: { width: 30, height: 40, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer(),
  )
}, setupTimeout())
afterAll(async () => tp?.close())

describe('media library', () => {
  it('stores an image with its type and size read from the bytes, under the tenant prefix', async () => {
    // Named .gif, sent as a JPEG: the bytes decide.
    const res = await upload(a.token, jpeg, 'Holiday Photo!.gif', { alt_text: 'A beach', caption: 'Summer' })
    expect(res.status).toBe(201)
    const media = await res.json()
    expect(media).toMatchObject({
      object: 'media',
      content_type: 'image/jpeg',
      width: 30,
      height: 40,
      bytes: jpeg.byteLength,
      alt_text: 'A beach',
      caption: 'Summer',
      file_name: 'Holiday-Photo-.jpg',
      reference: `media:${media.id}`,
      uploaded_by: a.userId,
    })
    const [row] = await tp.db.sql`select object_path from public.media where id = ${media.id}`
    expect(row!.object_path).toBe(`${a.tenantId}/${media.id}/Holiday-Photo-.jpg`)
    const original = await fetch(media.url)
    expect(original.status).toBe(200)
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(jpeg)
  })

  it('lists with search and pages, reads, and patches alt text and caption', async () => {
    for (const alt of ['red tulip', 'blue tulip', 'green fern'])
      expect((await upload(a.token, png, 'x.png', { alt_text: alt })).status).toBe(201)
    const tulips = await tp.json('/v1/content/media?q=tulip&limit=1', { token: a.token })
    expect(tulips.status).toBe(200)
    expect(tulips.body.data.map((m: { alt_text: string }) => m.alt_text)).toEqual(['blue tulip'])
    const next = await tp.json(`/v1/content/media?q=tulip&limit=1&cursor=${tulips.body.next_cursor}`, {
      token: a.token,
    })
    expect(next.body.data.map((m: { alt_text: string }) => m.alt_text)).toEqual(['red tulip'])
    expect(next.body.next_cursor).toBeNull()
    const id = next.body.data[0].id
    const patched = await tp.json(`/v1/content/media/${id}`, {
      method: 'PATCH',
      token: a.token,
      body: { alt_text: 'A red tulip in the rain' },
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ alt_text: 'A red tulip in the rain', caption: '' })
    expect((await tp.json(`/v1/content/media/${id}`, { token: a.token })).body.alt_text).toBe(
      'A red tulip in the rain',
    )
    // Another tenant neither lists nor reads it.
    expect((await tp.json('/v1/content/media?q=tulip', { token: b.token })).body.data).toEqual([])
    expect((await tp.json(`/v1/content/media/${id}`, { token: b.token })).status).toBe(404)
    expect((await tp.json(`/v1/content/media/${id}`, { method: 'DELETE', token: b.token })).status).toBe(404)
  })

  it('refuses what is not an image, an SVG with script, and a file over the plan limit, writing nothing', async () => {
    const before = {
      rows: await rowsOf(b.tenantId),
      objects: await objectsOf(b.tenantId),
      files: storedFiles().length,
    }
    const text = await upload(b.token, new TextEncoder().encode('GIF89a but really just text'), 'fake.gif')
    expect(text.status).toBe(415)
    expect(await text.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' })
    const svg = await upload(
      b.token,
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>',
      ),
      'x.svg',
    )
    expect(svg.status).toBe(422)
    expect((await svg.json()).message).toMatch(/<script> element/)
    const handler = await upload(
      b.token,
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" onload="alert(1)"/>',
      ),
      'y.svg',
    )
    expect(handler.status).toBe(422)
    // Free plan: 5 MB per file. A real PNG header with padding past it.
    const big = new Uint8Array(5 * 1024 * 1024 + 10)
    big.set(png)
    const over = await upload(b.token, big, 'big.png')
    expect(over.status).toBe(413)
    expect((await over.json()).message).toMatch(/free plan takes files up to 5242880 bytes/)
    expect({
      rows: await rowsOf(b.tenantId),
      objects: await objectsOf(b.tenantId),
      files: storedFiles().length,
    }).toEqual(before)
    // A clean SVG is kept, and served only as an attachment.
    const clean = await upload(
      b.token,
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6" fill="#f00"/></svg>',
      ),
      'logo.svg',
    )
    expect(clean.status).toBe(201)
    const served = await fetch((await clean.json()).url)
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/)
  })

  it("meters the library's bytes against the plan's storage quota", async () => {
    const t = await tp.createTenant()
    expect((await upload(t.token, png)).status).toBe(201)
    const usage = await tp.json('/v1/content/media-usage', { token: t.token })
    expect(usage.body).toMatchObject({
      plan: 'free',
      items: 1,
      used_bytes: png.byteLength,
      quota_bytes: 524288000,
      max_file_bytes: 5242880,
    })
    await tp.db
      .sql`update public.media_plan_limits set storage_quota_bytes = ${png.byteLength + 10} where plan = 'free'`
    try {
      const over = await upload(t.token, png)
      expect(over.status).toBe(429)
      expect(await over.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' })
      expect(await rowsOf(t.tenantId)).toBe(1)
    } finally {
      await tp.db.sql`update public.media_plan_limits set storage_quota_bytes = 524288000 where plan = 'free'`
    }
  })

  it('refuses to delete an image an article uses, and deletes row and object otherwise', async () => {
    const media = await (await upload(a.token, png, 'used.png')).json()
    const site = await tp.json('/v1/content/sites', { token: a.token, body: { name: 'Media site' } })
    const article = await tp.json('/v1/content/articles', {
      token: a.token,
      body: {
        site_id: site.body.id,
        title: 'Uses an image',
        body: `Look:\n\n![a tulip](media:${media.id})\n`,
      },
    })
    expect(article.status).toBe(201)
    const refused = await tp.json(`/v1/content/media/${media.id}`, { method: 'DELETE', token: a.token })
    expect(refused.status).toBe(409)
    expect(refused.body.details).toEqual([
      { field: `articles.${article.body.id}`, message: 'draft: Uses an image' },
    ])
    expect(await tp.db.sql`select 1 from storage.objects where name like ${`%${media.id}%`}`).toHaveLength(1)

    await tp.json(`/v1/content/articles/${article.body.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { body: 'No image now.' },
    })
    expect(
      (await tp.json(`/v1/content/media/${media.id}`, { method: 'DELETE', token: a.token })).status,
    ).toBe(204)
    expect(await tp.db.sql`select 1 from storage.objects where name like ${`%${media.id}%`}`).toHaveLength(0)
    expect(storedFiles().filter((f) => f.includes(media.id))).toEqual([])
  })

  it('lets a contributor upload and use the library, and change or delete its own uploads only', async () => {
    const contributor = await addMember(tp, a.tenantId, 'contributor')
    const own = await upload(contributor.token, png, 'mine.png')
    expect(own.status).toBe(201)
    const ownId = (await own.json()).id
    const editors = await (await upload(a.token, png, 'editors.png')).json()
    expect((await tp.json(`/v1/content/media/${editors.id}`, { token: contributor.token })).status).toBe(200)
    const patch = await tp.json(`/v1/content/media/${editors.id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { caption: 'mine now' },
    })
    expect(patch.status).toBe(403)
    expect(
      (await tp.json(`/v1/content/media/${editors.id}`, { method: 'DELETE', token: contributor.token }))
        .status,
    ).toBe(403)
    expect(
      (await tp.json(`/v1/content/media/${ownId}`, { method: 'DELETE', token: contributor.token })).status,
    ).toBe(204)
  })
})
