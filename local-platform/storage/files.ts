import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'

/**
 * The bytes of the local Storage: one file per object under <root>/<bucket>/<name>, as Supabase
 * Storage keeps them in its S3 backend. Names are checked here as well as by the routes, so no
 * name can reach outside the bucket's folder (`..`, absolute paths, backslashes, NUL).
 */

/** Supabase's object-name rule, narrowed: printable, no `..` segment, no leading slash, ≤ 1024. */
export function isSafeObjectName(name: string): boolean {
  if (name.length === 0 || name.length > 1024) return false
  if (name.startsWith('/') || name.includes('\\')) return false
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return false
  }
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

export const isSafeBucketId = (id: string) => /^[a-z0-9][a-z0-9_-]{0,62}$/.test(id)

export class ObjectFiles {
  constructor(private readonly root: string) {}

  private pathOf(bucket: string, name: string): string {
    if (!isSafeBucketId(bucket) || !isSafeObjectName(name)) throw new Error('unsafe object name')
    const base = resolve(this.root, bucket)
    const full = resolve(base, name)
    if (!full.startsWith(base + sep)) throw new Error('unsafe object name')
    return full
  }

  /**
   * Writes the bytes beside their final place; `commit` moves them there (a rename, atomic on one
   * file system) and `discard` removes them. The caller commits only after the database row is in,
   * so a refused or failed upload leaves neither a row nor a file.
   */
  async stage(bucket: string, name: string, bytes: Uint8Array) {
    const target = this.pathOf(bucket, name)
    await mkdir(dirname(target), { recursive: true })
    const staged = join(dirname(target), `.upload-${randomUUID()}`)
    await writeFile(staged, bytes)
    return {
      commit: () => rename(staged, target),
      discard: () => rm(staged, { force: true }),
    }
  }

  async read(bucket: string, name: string): Promise<Uint8Array | null> {
    try {
      return new Uint8Array(await readFile(this.pathOf(bucket, name)))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  /** The file as a web stream and its size, or null when it is missing. */
  async stream(bucket: string, name: string): Promise<{ body: ReadableStream; size: number } | null> {
    const path = this.pathOf(bucket, name)
    try {
      const { size } = await stat(path)
      return { body: Readable.toWeb(createReadStream(path)) as ReadableStream, size }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async remove(bucket: string, name: string): Promise<void> {
    await rm(this.pathOf(bucket, name), { force: true })
  }
}
