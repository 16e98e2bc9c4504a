/**
 * Media: a 2 MB image uploaded through the platform (POST /v1/content/media: the bytes checked, the
 * object stored through the local Storage, the row written) against writing the same bytes to a
 * file; and a 640-wide rendition read through the platform (/storage/v1/render/image, sharp)
 * against reading the stored file directly. p50 and p99 of each.
 */
import { randomBytes } from 'node:crypto'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestPlatform } from '@tests/support/platform.ts'
import sharp from 'sharp'
import { latencyStats } from '../lib.ts'

const UPLOADS = Number(process.env.MEDIA_BENCH_UPLOADS ?? 20)
const READS = Number(process.env.MEDIA_BENCH_READS ?? 40)

async function timed(n: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    await fn(i)
    samples.push(performance.now() - started)
  }
  return samples
}

const line = (label: string, s: number[]) => {
  const { p50ms, p99ms } = latencyStats(s)
  console.log(
    `${label.padEnd(48)} p50 ${p50ms.toFixed(1).padStart(7)} ms   p99 ${p99ms.toFixed(1).padStart(7)} ms`,
  )
}

export default async function (): Promise<void> {
  const tp = await startTestPlatform()
  try {
    const t = await tp.createTenant()
    // Noise compresses badly: an 840x840 PNG of random pixels is about 2 MB.
    const raw = randomBytes(840 * 840 * 3)
    const png = new Uint8Array(
      await sharp(raw, { raw: { width: 840, height: 840, channels: 3 } })
        .png()
        .toBuffer(),
    )
    console.log(`image: ${(png.byteLength / 1024 / 1024).toFixed(2)} MB PNG, 840x840`)
    let last = ''
    const uploads = await timed(UPLOADS, async () => {
      const form = new FormData()
      form.append('file', new Blob([png as Uint8Array<ArrayBuffer>]), 'noise.png')
      const res = await tp.request('/v1/content/media', { method: 'POST', token: t.token, body: form })
      if (res.status !== 201) throw new Error(`upload ${res.status} ${await res.text()}`)
      last = ((await res.json()) as { id: string }).id
    })
    const direct = join(tp.storageDir, 'bench-direct.png')
    const writes = await timed(UPLOADS, async () => writeFile(direct, png))
    line('upload 2 MB through the platform', uploads)
    line('write the same bytes to a file', writes)

    const [row] = await tp.db.sql<
      { object_path: string }[]
    >`select object_path from public.media where id = ${last}`
    const url = `${tp.baseUrl}/storage/v1/render/image/authenticated/media/${row!.object_path}?width=640`
    const renditions = await timed(READS, async () => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${t.token}`, accept: 'image/webp' } })
      if (res.status !== 200) throw new Error(`rendition ${res.status}`)
      await res.arrayBuffer()
    })
    const stored = join(tp.storageDir, 'media', row!.object_path)
    const reads = await timed(READS, async () => {
      await readFile(stored)
    })
    line('rendition 640w WebP through the platform', renditions)
    line('read the stored file directly', reads)
    await rm(direct, { force: true })
  } finally {
    await tp.close()
  }
}
