import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { StorageClient } from '@supabase/storage-js'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

// The local Storage (/storage/v1, local-platform/storage/) driven by supabase-js's storage client
// over real HTTP,
// exactly as code written for Supabase Storage calls it; row-level security on storage.objects
// decides what each signed-in caller reaches.

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let png: Uint8Array

/** What supabase-js's `client.storage` is (its StorageClient), with the headers supabase-js sends. */
const storageClient = (token: string) =>
  new StorageClient(`${tp.baseUrl}/storage/v1`, { apikey: tp.anonKey, authorization: `Bearer ${token}` })
const storageFor = (token: string) => storageClient(token).from('media')

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  png = new Uint8Array(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer(),
  )
}, setupTimeout())
afterAll(async () => tp?.close())

/** Every file under the Storage folder, staged uploads included. */
const storedFiles = (dir = tp.storageDir): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? storedFiles(join(dir, e.name)) : [join(dir, e.name)],
      )
    : []

describe('local Storage through supabase-js', () => {
  it('uploads, lists, downloads and removes an object under the tenant prefix', async () => {
    const s = storageFor(a.token)
    const path = `${a.tenantId}/one/photo.png`
    const up = await s.upload(path, new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }))
    expect(up.error).toBeNull()
    expect(up.data?.fullPath).toBe(`media/${path}`)

    const listed = await s.list(`${a.tenantId}/one`)
    expect(listed.data?.map((o) => o.name)).toEqual(['photo.png'])
    const folders = await s.list(a.tenantId)
    expect(folders.data).toEqual([expect.objectContaining({ name: 'one', id: null })])

    const down = await s.download(path)
    expect(new Uint8Array(await down.data!.arrayBuffer())).toEqual(png)
    expect(down.data!.type).toBe('image/png')

    const again = await s.upload(path, new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }))
    expect(again.error?.message).toMatch(/already exists/)

    const removed = await s.remove([path])
    expect(removed.data?.map((o) => o.name)).toEqual([path])
    expect((await s.download(path)).error).not.toBeNull()
    expect(storedFiles().filter((f) => f.includes(a.tenantId))).toEqual([])
  })

  it("keeps tenants apart: another tenant's objects cannot be read, listed, signed, written or removed", async () => {
    const path = `${a.tenantId}/private/secret.png`
    expect(
      (
        await storageFor(a.token).upload(
          path,
          new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        )
      ).error,
    ).toBeNull()
    const other = storageFor(b.token)
    expect((await other.download(path)).error).not.toBeNull()
    expect((await other.list(`${a.tenantId}/private`)).data).toEqual([])
    expect((await other.createSignedUrl(path, 60)).error).not.toBeNull()
    expect((await other.remove([path])).data).toEqual([])
    const write = await other.upload(
      `${a.tenantId}/private/planted.png`,
      new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
    )
    expect(write.error?.message).toMatch(/row-level security/)
    // Nothing half-written: no row, no file, no staged upload left behind.
    expect(
      await tp.db.sql`select 1 from storage.objects where name like ${`${a.tenantId}/private/planted%`}`,
    ).toEqual([])
    expect(storedFiles().filter((f) => f.includes('planted') || f.includes('.upload-'))).toEqual([])
    expect((await storageFor(a.token).download(path)).error).toBeNull()
  })

  it('refuses names that climb out of the bucket and types the bucket does not take', async () => {
    const res = await fetch(`${tp.baseUrl}/storage/v1/object/media/${a.tenantId}%2F..%2F..%2Fescape.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, apikey: tp.anonKey, 'content-type': 'image/png' },
      body: png as Uint8Array<ArrayBuffer>,
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: 'InvalidKey' })
    const text = await storageFor(a.token).upload(
      `${a.tenantId}/notes.txt`,
      new Blob(['hi'], { type: 'text/plain' }),
    )
    expect(text.error?.message).toMatch(/mime type text\/plain is not supported/)
    expect(storedFiles().filter((f) => f.includes('escape') || f.includes('notes.txt'))).toEqual([])
  })

  it('lets a contributor remove its own uploads only; an editor removes any', async () => {
    const contributor = await addMember(tp, a.tenantId, 'contributor')
    const editor = await addMember(tp, a.tenantId, 'member')
    const mine = `${a.tenantId}/c/mine.png`
    const theirs = `${a.tenantId}/c/theirs.png`
    expect(
      (
        await storageFor(contributor.token).upload(
          mine,
          new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        )
      ).error,
    ).toBeNull()
    expect(
      (
        await storageFor(a.token).upload(
          theirs,
          new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        )
      ).error,
    ).toBeNull()
    expect((await storageFor(contributor.token).remove([theirs])).data).toEqual([])
    expect((await storageFor(contributor.token).remove([mine])).data?.length).toBe(1)
    expect((await storageFor(editor.token).remove([theirs])).data?.length).toBe(1)
  })

  it('serves a signed URL until it expires, and renders image transformations', async () => {
    const s = storageFor(a.token)
    const path = `${a.tenantId}/signed/pic.png`
    await s.upload(path, new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }))
    const signed = await s.createSignedUrl(path, 1)
    expect(signed.error).toBeNull()
    const first = await fetch(signed.data!.signedUrl)
    expect(first.status).toBe(200)
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(png)

    const small = await s.createSignedUrl(path, 60, { transform: { width: 32 } })
    const rendition = await fetch(small.data!.signedUrl, { headers: { accept: 'image/webp,*/*' } })
    expect(rendition.status).toBe(200)
    expect(rendition.headers.get('content-type')).toBe('image/webp')
    const meta = await sharp(new Uint8Array(await rendition.arrayBuffer())).metadata()
    expect([meta.width, meta.height]).toEqual([32, 24])
    // The token names its transformation: a query asking for another one does not change it.
    const other = new URL(small.data!.signedUrl)
    other.searchParams.set('width', '64')
    expect((await sharp(new Uint8Array(await (await fetch(other)).arrayBuffer())).metadata()).width).toBe(32)
    // A plain object token does not open the rendition path, nor the other way round.
    const plainToken = new URL(signed.data!.signedUrl).searchParams.get('token')
    const crossed = `${tp.baseUrl}/storage/v1/render/image/sign/media/${path}?token=${plainToken}`
    expect((await fetch(crossed)).status).toBe(400)

    // Expiry: polled with a bound, never a fixed sleep.
    const deadline = Date.now() + 10_000
    let status = 200
    while (status === 200 && Date.now() < deadline) {
      status = (await fetch(signed.data!.signedUrl)).status
      if (status === 200) await new Promise((r) => setTimeout(r, 100))
    }
    expect(status).toBe(400)
  })

  it('takes the service role past row-level security, and the publishable key alone nowhere private', async () => {
    const service = storageFor(tp.serviceRoleKey)
    const path = `${b.tenantId}/svc/by-service.png`
    expect(
      (await service.upload(path, new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }))).error,
    ).toBeNull()
    expect((await storageFor(b.token).download(path)).error).toBeNull()
    const anon = storageFor(tp.anonKey)
    expect((await anon.download(path)).error).not.toBeNull()
    const pub = await fetch(anon.getPublicUrl(path).data.publicUrl)
    expect(pub.status).toBe(400)
    const bucket = await storageClient(tp.serviceRoleKey).getBucket('media')
    expect(bucket.data).toMatchObject({ public: false, file_size_limit: 26214400 })
  })
})
