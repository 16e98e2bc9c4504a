import type { Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { inspectImage, safeFileName } from './inspect.ts'
import type { Media, MediaUsage } from './schema.ts'
import { mediaBucket, storageFailed } from './storage.ts'

/**
 * The tenant's media library: a public.media row per image (read and written as the caller, so
 * row-level security keeps tenants apart and a contributor to its own uploads) and the image's
 * bytes in the Storage bucket under `<tenant_id>/<media_id>/<file name>`, a path the platform
 * makes: no part of it comes from the request but the sanitized file name.
 */

interface MediaRow {
  id: string
  object_path: string
  file_name: string
  alt_text: string
  caption: string
  width: number | null
  height: number | null
  bytes: string
  content_type: Media['content_type']
  uploaded_by: string | null
  created_at: Date
  updated_at: Date
}

const columns =
  'id, object_path, file_name, alt_text, caption, width, height, bytes::text, content_type, uploaded_by, created_at, updated_at'

/** How long a library URL (the original, for the dashboard and the API) stays valid. */
const LIBRARY_URL_SECONDS = 3600

async function present(ctx: ServiceContext, rows: MediaRow[]): Promise<Media[]> {
  if (rows.length === 0) return []
  const { data, error } = await mediaBucket(ctx).createSignedUrls(
    rows.map((r) => r.object_path),
    LIBRARY_URL_SECONDS,
  )
  if (error || !data) storageFailed('sign the image URLs', error)
  const expires = new Date(ctx.clock.now().getTime() + LIBRARY_URL_SECONDS * 1000).toISOString()
  return rows.map((r, i) => ({
    object: 'media',
    id: r.id,
    reference: `media:${r.id}`,
    file_name: r.file_name,
    alt_text: r.alt_text,
    caption: r.caption,
    width: r.width,
    height: r.height,
    bytes: Number(r.bytes),
    content_type: r.content_type,
    uploaded_by: r.uploaded_by,
    url: data[i]?.signedUrl ?? '',
    url_expires_at: expires,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }))
}

interface Limits {
  plan: string
  max_file_bytes: string
  storage_quota_bytes: string
  used: string
  items: string
}

const limitsOf = (tx: Tx, tenantId: string) =>
  tx<Limits[]>`
    select t.plan, l.max_file_bytes::text, l.storage_quota_bytes::text,
           coalesce((select sum(m.bytes) from public.media m where m.tenant_id = t.id), 0)::text as used,
           (select count(*) from public.media m where m.tenant_id = t.id)::text as items
    from public.tenants t join public.media_plan_limits l on l.plan = t.plan
    where t.id = ${tenantId}`

/** Refuses a file over the plan's size limit or one its library has no room left for. */
function checkLimits(limits: Limits | undefined, size: number): void {
  if (!limits) throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'No tenant to upload to')
  if (size > Number(limits.max_file_bytes))
    throw new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `The file is ${size} bytes; the ${limits.plan} plan takes files up to ${limits.max_file_bytes} bytes`,
    )
  if (Number(limits.used) + size > Number(limits.storage_quota_bytes))
    throw new ServiceError(
      'QUOTA_EXCEEDED',
      `The media library holds ${limits.used} of ${limits.storage_quota_bytes} bytes (${limits.plan} plan); this file does not fit`,
    )
}

/**
 * Checks the bytes and the plan, stores the object, then records the row. The row is what makes
 * an image exist (every read goes through it), so the object is written first and removed again
 * if the row is refused (the quota, checked again under a per-tenant lock, or row-level security):
 * a refused upload leaves neither. Storage is never called inside a transaction, which would hold
 * a connection across a network call.
 */
export async function uploadMedia(
  ctx: ServiceContext,
  input: { bytes: Uint8Array; fileName: string; altText: string; caption: string },
): Promise<Media> {
  const { caller } = ctx
  const size = input.bytes.byteLength
  checkLimits((await ctx.readAsTenant((q) => limitsOf(q as Tx, caller.tenantId)))[0], size)
  const image = inspectImage(input.bytes)
  const id = crypto.randomUUID()
  const fileName = safeFileName(input.fileName, image.contentType)
  const objectPath = `${caller.tenantId}/${id}/${fileName}`
  const bucket = mediaBucket(ctx)
  const { error } = await bucket.upload(objectPath, input.bytes, {
    contentType: image.contentType,
    cacheControl: '31536000',
    upsert: false,
  })
  if (error) storageFailed('store the image', error)
  try {
    const row = await ctx.asTenant(async (tx) => {
      // One upload at a time per tenant past this point, so two cannot both fit the last of the quota.
      await tx`select pg_advisory_xact_lock(hashtext(${`media:${caller.tenantId}`}))`
      checkLimits((await limitsOf(tx, caller.tenantId))[0], size)
      const [inserted] = await tx<MediaRow[]>`
        insert into public.media (id, tenant_id, object_path, file_name, alt_text, caption, width, height, bytes, content_type, uploaded_by)
        values (${id}, ${caller.tenantId}, ${objectPath}, ${fileName}, ${input.altText}, ${input.caption},
                ${image.width}, ${image.height}, ${size}, ${image.contentType}, ${caller.userId})
        returning ${tx.unsafe(columns)}`
      return inserted!
    })
    return (await present(ctx, [row]))[0]!
  } catch (err) {
    await bucket.remove([objectPath]).catch(() => {})
    throw err
  }
}

export async function listMedia(
  ctx: ServiceContext,
  page: PageRequest & { q?: string },
): Promise<Page<Media>> {
  const { caller } = ctx
  const words = (page.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8)
  const result = await keysetPage(
    page,
    { at: 'created_at' },
    (r: MediaRow) => r,
    (keyset) =>
      ctx.readAsTenant(
        (q) => q<MediaRow[]>`
        select ${q.unsafe(columns)} from public.media
        where tenant_id = ${caller.tenantId}
          ${words.length ? q`and ${words.map((w, i) => q`${i ? q`and` : q``} (file_name || ' ' || alt_text || ' ' || caption) ilike ${`%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`)}` : q``}
          ${keyset(q)}`,
      ),
  )
  return { data: await present(ctx, result.data), next_cursor: result.next_cursor }
}

async function findRow(ctx: ServiceContext, id: string): Promise<MediaRow> {
  const [row] = await ctx.readAsTenant(
    (q) =>
      q<
        MediaRow[]
      >`select ${q.unsafe(columns)} from public.media where tenant_id = ${ctx.caller.tenantId} and id = ${id}`,
  )
  if (!row) throw notFound('Media')
  return row
}

export async function getMedia(ctx: ServiceContext, id: string): Promise<Media> {
  return (await present(ctx, [await findRow(ctx, id)]))[0]!
}

export async function updateMedia(
  ctx: ServiceContext,
  id: string,
  input: { alt_text?: string; caption?: string },
): Promise<Media> {
  const row = await ctx.asTenant(async (tx) => {
    const [r] = await tx<MediaRow[]>`
      update public.media set
        alt_text = coalesce(${input.alt_text ?? null}, alt_text),
        caption = coalesce(${input.caption ?? null}, caption),
        updated_at = date_trunc('milliseconds', now())
      where tenant_id = ${ctx.caller.tenantId} and id = ${id}
      returning ${tx.unsafe(columns)}`
    return r
  })
  if (!row) return refuseOrMissing(ctx, id)
  return (await present(ctx, [row]))[0]!
}

/** A row the caller sees but may not change (a contributor, another's upload) is 403; else 404. */
async function refuseOrMissing(ctx: ServiceContext, id: string): Promise<never> {
  await findRow(ctx, id)
  throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'A contributor changes and deletes only its own uploads')
}

/** The articles of the tenant that use the image: in the body or as the feature image. */
const articlesUsing = (tx: Tx, tenantId: string, id: string) =>
  tx<{ id: string; title: string; status: string }[]>`
    select id, title, status from public.articles
    where tenant_id = ${tenantId}
      and (body like ${`%media:${id}%`} or feature_image_url like ${`%${id}%`})
    order by updated_at desc limit 20`

/**
 * The row goes first (checked against the articles that use it, deleted as the caller: a row the
 * caller sees but may not delete, a contributor's view of another's upload, is 403),
 * then the object. Should Storage fail after the row is gone, the object is unreachable (every
 * read goes through a row) and is logged for removal by hand.
 */
export async function deleteMedia(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const removed = await ctx.asTenant(async (tx) => {
    const [row] = await tx<{ object_path: string }[]>`
      select object_path from public.media where tenant_id = ${caller.tenantId} and id = ${id}`
    if (!row) throw notFound('Media')
    const users = await articlesUsing(tx, caller.tenantId, id)
    if (users.length)
      throw new ServiceError(
        'CONFLICT',
        `The image is used by ${users.length} article(s); take it out of them first`,
        {
          details: users.map((a) => ({
            field: `articles.${a.id}`,
            message: `${a.status}: ${a.title.slice(0, 200)}`,
          })),
        },
      )
    const [gone] = await tx<{ object_path: string }[]>`
      delete from public.media where tenant_id = ${caller.tenantId} and id = ${id} returning object_path`
    return gone ?? null
  })
  if (!removed)
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      'A contributor changes and deletes only its own uploads',
    )
  const { error } = await mediaBucket(ctx).remove([removed.object_path])
  if (error)
    ctx.logger.warn('media object left after its row was deleted', {
      path: removed.object_path,
      error: error.message,
    })
}

export async function mediaUsage(ctx: ServiceContext): Promise<MediaUsage> {
  const [limits] = await ctx.readAsTenant((q) => limitsOf(q as Tx, ctx.caller.tenantId))
  if (!limits) throw notFound('Tenant')
  const used = Number(limits.used)
  const quota = Number(limits.storage_quota_bytes)
  return {
    object: 'media_usage',
    plan: limits.plan,
    items: Number(limits.items),
    used_bytes: used,
    quota_bytes: quota,
    max_file_bytes: Number(limits.max_file_bytes),
    percent: quota > 0 ? Math.round((used * 10000) / quota) / 100 : 0,
  }
}
