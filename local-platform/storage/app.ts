import { createHash } from 'node:crypto'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { z } from 'zod'
import type { LocalEnv } from '../local-env.ts'
import { StorageError, storageCaller, urlSigner } from './access.ts'
import { isSafeBucketId, isSafeObjectName, ObjectFiles } from './files.ts'
import {
  asCaller,
  bucketOf,
  deleteObjects,
  findObject,
  insertObject,
  listObjects,
  type ObjectRow,
} from './objects.ts'
import { renderImage, type Transform, transformQuery } from './render.ts'

/**
 * The local stand-in for Supabase Storage under /storage/v1: the subset of its REST API that
 * supabase-js's `storage` calls and the platform uses (upload, download, list, remove, signed URLs,
 * public objects, /render/image transformations), with Supabase's paths, bodies and answers, so
 * storage code runs unchanged against `npm start`. Rows are storage.buckets and storage.objects,
 * written as the caller under their row-level security; bytes are files in the data folder.
 * Local only: Supabase Storage serves these paths in production.
 */

/** The largest object the local Storage takes: the media bucket's limit (docs/deploy.md). */
const MAX_OBJECT_BYTES = 25 * 1024 * 1024
const MAX_SIGNED_SECONDS = 60 * 60 * 24 * 365

const listBody = z.object({
  prefix: z.string().max(1024).default(''),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).max(1_000_000).default(0),
  search: z.string().max(200).default(''),
  sortBy: z
    .object({
      column: z.enum(['name', 'created_at', 'updated_at']).default('name'),
      order: z.enum(['asc', 'desc']).default('asc'),
    })
    .default({ column: 'name', order: 'asc' }),
})
const signBody = z.object({
  expiresIn: z.number().int().min(1).max(MAX_SIGNED_SECONDS),
  transform: transformQuery.partial().optional(),
})
const signManyBody = z.object({
  expiresIn: z.number().int().min(1).max(MAX_SIGNED_SECONDS),
  paths: z.array(z.string().max(1024)).min(1).max(1000),
})
const removeBody = z.object({ prefixes: z.array(z.string().max(1024)).min(1).max(1000) })

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new StorageError(400, 'InvalidRequest', z.prettifyError(result.error))
  return result.data
}

/** Bucket and object name from the path after `prefix` (each segment percent-decoded). */
function target(c: Context, prefix: string): { bucket: string; name: string } {
  const rest = new URL(c.req.url).pathname.slice(prefix.length)
  const [bucket = '', ...parts] = rest.split('/')
  let name: string
  try {
    name = parts.map(decodeURIComponent).join('/')
  } catch {
    throw new StorageError(400, 'InvalidKey', 'Invalid key')
  }
  if (!isSafeBucketId(bucket)) throw new StorageError(400, 'InvalidBucketName', 'Invalid bucket name')
  if (!isSafeObjectName(name)) throw new StorageError(400, 'InvalidKey', `Invalid key: ${name.slice(0, 100)}`)
  return { bucket, name }
}

const escapeQuoted = (s: string) => s.replace(/["\\\r\n]/g, '_')

export function createLocalStorage(deps: FunctionDeps, localEnv: LocalEnv, root: string): Hono {
  const app = new Hono()
  const files = new ObjectFiles(root)
  const signer = urlSigner(localEnv)
  const sql = deps.sql

  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['authorization', 'x-client-info', 'apikey', 'content-type', 'x-upsert', 'cache-control'],
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['content-length', 'content-type', 'etag', 'x-request-id'],
      maxAge: 600,
    }),
  )
  app.onError((err, c) => {
    if (err instanceof StorageError) return c.json(err.body(), err.status)
    deps.logger.error('local storage error', { error: String(err) })
    return c.json(
      { statusCode: '500', error: 'internal', code: 'INTERNAL_ERROR', message: 'Internal error' },
      500,
    )
  })

  /** The object's bytes as Supabase serves them (SVG always as an attachment). */
  async function serve(
    c: Context,
    row: Pick<ObjectRow, 'bucket_id' | 'name' | 'metadata'>,
    download?: string,
  ) {
    const file = await files.stream(row.bucket_id, row.name)
    if (!file) throw new StorageError(404, 'not_found', 'Object not found')
    const type = row.metadata?.mimetype ?? 'application/octet-stream'
    const headers: Record<string, string> = {
      'content-type': type,
      'content-length': String(file.size),
      'cache-control': row.metadata?.cacheControl ?? 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(row.metadata?.eTag && { etag: row.metadata.eTag }),
    }
    const filename = escapeQuoted(download || row.name.split('/').pop()!)
    if (download !== undefined || type === 'image/svg+xml') {
      headers['content-disposition'] = `attachment; filename="${filename}"`
      headers['content-security-policy'] = "default-src 'none'; sandbox"
    }
    return new Response(c.req.method === 'HEAD' ? null : file.body, { status: 200, headers })
  }

  async function serveRendition(
    c: Context,
    row: Pick<ObjectRow, 'bucket_id' | 'name' | 'metadata'>,
    transform: Transform = parse(transformQuery, c.req.query()),
  ) {
    const bytes = await files.read(row.bucket_id, row.name)
    if (!bytes) throw new StorageError(404, 'not_found', 'Object not found')
    const out = await renderImage(
      bytes,
      row.metadata?.mimetype ?? 'application/octet-stream',
      transform,
      c.req.header('accept') ?? '',
    )
    return new Response(out.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        'content-type': out.contentType,
        'content-length': String(out.bytes.byteLength),
        'cache-control': row.metadata?.cacheControl ?? 'no-cache',
        vary: 'Accept',
        'x-content-type-options': 'nosniff',
        ...(out.contentType === 'image/svg+xml' && {
          'content-disposition': 'attachment',
          'content-security-policy': "default-src 'none'; sandbox",
        }),
      },
    })
  }

  app.get('/bucket/:id', async (c) => {
    const caller = await storageCaller(deps, c.req.raw.headers)
    if (caller.kind === 'anon') throw new StorageError(403, 'Unauthorized', 'Bucket not found')
    const b = await bucketOf(sql, c.req.param('id'))
    return c.json({
      ...b,
      file_size_limit: b.file_size_limit === null ? null : Number(b.file_size_limit),
      owner: '',
    })
  })

  app.post('/object/list/:bucket', async (c) => {
    const caller = await storageCaller(deps, c.req.raw.headers)
    const bucket = c.req.param('bucket')
    const body = parse(listBody, await c.req.json().catch(() => null))
    const rows = await asCaller(sql, caller, (tx) =>
      listObjects(tx, bucket, {
        prefix: body.prefix,
        limit: body.limit,
        offset: body.offset,
        search: body.search,
        column: body.sortBy.column === 'name' ? 'entry' : body.sortBy.column,
        order: body.sortBy.order,
      }),
    )
    return c.json(rows)
  })

  // Signed URLs: made for an object the caller may read, then served to anyone holding the token
  // until it expires.
  app.post('/object/sign/:bucket', async (c) => {
    const caller = await storageCaller(deps, c.req.raw.headers)
    const bucket = c.req.param('bucket')
    const body = parse(signManyBody, await c.req.json().catch(() => null))
    const now = deps.clock.now()
    const rows = await asCaller(sql, caller, (tx) =>
      Promise.all(body.paths.map((p) => (isSafeObjectName(p) ? findObject(tx, bucket, p) : null))),
    )
    return c.json(
      await Promise.all(
        body.paths.map(async (path, i) =>
          rows[i]
            ? {
                error: null,
                path,
                signedURL: `/object/sign/${bucket}/${encodeURI(path)}?token=${await signer.sign({ url: `${bucket}/${path}` }, body.expiresIn, now)}`,
              }
            : {
                error: 'Either the object does not exist or you do not have access to it',
                path,
                signedURL: null,
              },
        ),
      ),
    )
  })
  app.post('/object/sign/*', async (c) => {
    const caller = await storageCaller(deps, c.req.raw.headers)
    const { bucket, name } = target(c, '/storage/v1/object/sign/')
    const body = parse(signBody, await c.req.json().catch(() => null))
    const row = await asCaller(sql, caller, (tx) => findObject(tx, bucket, name))
    if (!row) throw new StorageError(404, 'not_found', 'Object not found')
    const transform = body.transform && Object.keys(body.transform).length > 0 ? body.transform : undefined
    const token = await signer.sign(
      {
        url: `${bucket}/${name}`,
        ...(transform && { transformations: JSON.stringify(parse(transformQuery, transform)) }),
      },
      body.expiresIn,
      deps.clock.now(),
    )
    const kind = transform ? '/render/image/sign' : '/object/sign'
    return c.json({ signedURL: `${kind}/${bucket}/${encodeURI(name)}?token=${token}` })
  })

  async function bySignedToken(c: Context, prefix: string, rendition: boolean) {
    const { bucket, name } = target(c, prefix)
    const signed = await signer.verify(c.req.query('token') ?? '', deps.clock.now())
    if (!signed || signed.url !== `${bucket}/${name}`)
      throw new StorageError(400, 'InvalidSignature', 'The signature is invalid or has expired')
    // As on Supabase, a signed rendition's transformation is the one in its token; the query's is ignored.
    if (rendition !== (signed.transformations !== undefined))
      throw new StorageError(400, 'InvalidSignature', 'The signature is invalid or has expired')
    const row = await sql.begin((tx) => findObject(tx, bucket, name))
    if (!row) throw new StorageError(404, 'not_found', 'Object not found')
    return {
      row,
      transform: signed.transformations
        ? parse(transformQuery, JSON.parse(signed.transformations))
        : undefined,
    }
  }
  app.get('/object/sign/*', async (c) =>
    serve(c, (await bySignedToken(c, '/storage/v1/object/sign/', false)).row),
  )
  app.get('/render/image/sign/*', async (c) => {
    const { row, transform } = await bySignedToken(c, '/storage/v1/render/image/sign/', true)
    return serveRendition(c, row, transform)
  })

  async function publicObject(c: Context, prefix: string) {
    const { bucket, name } = target(c, prefix)
    if (!(await bucketOf(sql, bucket)).public) throw new StorageError(400, 'not_found', 'Object not found')
    const row = await sql.begin((tx) => findObject(tx, bucket, name))
    if (!row) throw new StorageError(404, 'not_found', 'Object not found')
    return row
  }
  app.get('/object/public/*', async (c) =>
    serve(c, await publicObject(c, '/storage/v1/object/public/'), c.req.query('download')),
  )
  app.get('/render/image/public/*', async (c) =>
    serveRendition(c, await publicObject(c, '/storage/v1/render/image/public/')),
  )

  async function readable(c: Context, prefix: string) {
    const caller = await storageCaller(deps, c.req.raw.headers)
    const { bucket, name } = target(c, prefix)
    const row = await asCaller(sql, caller, (tx) => findObject(tx, bucket, name))
    if (!row) throw new StorageError(404, 'not_found', 'Object not found')
    return row
  }
  app.get('/render/image/authenticated/*', async (c) =>
    serveRendition(c, await readable(c, '/storage/v1/render/image/authenticated/')),
  )
  app.on(['GET', 'HEAD'], '/object/authenticated/*', async (c) =>
    serve(c, await readable(c, '/storage/v1/object/authenticated/'), c.req.query('download')),
  )
  app.on(['GET', 'HEAD'], '/object/*', async (c) =>
    serve(c, await readable(c, '/storage/v1/object/'), c.req.query('download')),
  )

  app.on(
    ['POST', 'PUT'],
    '/object/*',
    bodyLimit({
      maxSize: MAX_OBJECT_BYTES + 64 * 1024,
      onError: () => {
        throw new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size')
      },
    }),
    async (c) => {
      const caller = await storageCaller(deps, c.req.raw.headers)
      const { bucket, name } = target(c, '/storage/v1/object/')
      const b = await bucketOf(sql, bucket)
      let bytes: Uint8Array
      let type: string
      let cacheControl = c.req.header('cache-control') ?? 'max-age=3600'
      if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
        const form = await c.req.formData()
        const file = [...form.values()].find((v): v is File => typeof v !== 'string')
        if (!file) throw new StorageError(400, 'InvalidRequest', 'No file in the form')
        bytes = new Uint8Array(await file.arrayBuffer())
        type = file.type || 'application/octet-stream'
        const cc = form.get('cacheControl')
        if (typeof cc === 'string') cacheControl = `max-age=${cc}`
      } else {
        bytes = new Uint8Array(await c.req.arrayBuffer())
        type = c.req.header('content-type') ?? 'application/octet-stream'
      }
      type = type.split(';')[0]!.trim().toLowerCase()
      const limit = Math.min(
        MAX_OBJECT_BYTES,
        b.file_size_limit === null ? Infinity : Number(b.file_size_limit),
      )
      if (bytes.byteLength > limit)
        throw new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size')
      if (b.allowed_mime_types?.length && !b.allowed_mime_types.includes(type))
        throw new StorageError(415, 'invalid_mime_type', `mime type ${type.slice(0, 100)} is not supported`)
      const eTag = `"${createHash('md5').update(bytes).digest('hex')}"`
      const now = deps.clock.now()
      const metadata = {
        size: bytes.byteLength,
        mimetype: type,
        cacheControl,
        eTag,
        lastModified: now.toISOString(),
      }
      // The bytes are staged first and moved into place only once the row is in: a refusal (RLS,
      // a duplicate) leaves neither; a failed rename rolls the row back.
      const staged = await files.stage(bucket, name, bytes)
      try {
        const { id } = await asCaller(sql, caller, async (tx) => {
          const r = await insertObject(tx, {
            bucket,
            name,
            owner: caller.kind === 'user' ? caller.claims.sub : null,
            metadata,
            upsert: c.req.method === 'PUT' || c.req.header('x-upsert') === 'true',
          })
          await staged.commit()
          return r
        })
        return c.json({ Id: id, Key: `${bucket}/${name}` })
      } catch (err) {
        await staged.discard()
        throw err
      }
    },
  )

  app.delete('/object/:bucket', async (c) => {
    const caller = await storageCaller(deps, c.req.raw.headers)
    const bucket = c.req.param('bucket')
    const body = parse(removeBody, await c.req.json().catch(() => null))
    const names = body.prefixes.filter(isSafeObjectName)
    const removed = await asCaller(sql, caller, (tx) => deleteObjects(tx, bucket, names))
    for (const row of removed) await files.remove(bucket, row.name)
    return c.json(
      removed.map((r) => ({
        name: r.name,
        id: r.id,
        bucket_id: r.bucket_id,
        owner: r.owner,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
        last_accessed_at: r.last_accessed_at.toISOString(),
        metadata: r.metadata,
      })),
    )
  })

  return app
}
