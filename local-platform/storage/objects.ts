import { type Sql, type Tx, withTenant } from '@shared/infra/db.ts'
import type { StorageCaller } from './access.ts'
import { StorageError } from './access.ts'

/**
 * The rows of storage.objects, read and written as the caller: a user's statements run as role
 * authenticated with its claims (withTenant), so the policies on storage.objects decide what it
 * sees and writes, as in Supabase Storage; the service role uses the owner pool (no RLS).
 */

export interface ObjectRow {
  id: string
  bucket_id: string
  name: string
  owner: string | null
  created_at: Date
  updated_at: Date
  last_accessed_at: Date
  metadata: {
    size: number
    mimetype: string
    cacheControl: string
    eTag: string
    lastModified: string
  } | null
}

export interface BucketRow {
  id: string
  name: string
  public: boolean
  file_size_limit: string | null
  allowed_mime_types: string[] | null
  created_at: Date
  updated_at: Date
}

export function asCaller<T>(sql: Sql, caller: StorageCaller, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (caller.kind === 'user') return withTenant(sql, caller.claims, fn)
  if (caller.kind === 'service') return sql.begin((tx) => fn(tx)) as Promise<T>
  // Anon has no policy on storage.objects: nothing but public buckets, served without a row read.
  throw new StorageError(403, 'Unauthorized', 'The publishable key alone reaches public buckets only')
}

/**
 * A bucket's row as this database has it. Supabase's Storage server adds the settings columns
 * (public, file_size_limit, allowed_mime_types, ...) in its own migrations, so a database with
 * Supabase's schema but no Storage server run yet has only id, name, owner and the times: the row
 * is read whole (to_jsonb) and a missing setting is Supabase's default (private, no limits).
 */
export async function bucketOf(sql: Sql, id: string): Promise<BucketRow> {
  const [found] = await sql<{ row: Record<string, unknown> }[]>`
    select to_jsonb(b) as row from storage.buckets b where id = ${id}`
  if (!found) throw new StorageError(404, 'Bucket not found', 'Bucket not found')
  const row = found.row
  const limit = row.file_size_limit
  return {
    id: String(row.id),
    name: String(row.name),
    public: row.public === true,
    file_size_limit: limit === null || limit === undefined ? null : String(limit),
    allowed_mime_types: Array.isArray(row.allowed_mime_types) ? (row.allowed_mime_types as string[]) : null,
    created_at: new Date(String(row.created_at)),
    updated_at: new Date(String(row.updated_at)),
  }
}

/**
 * Whether storage.objects has Supabase's newer owner_id column (text; the Storage server writes
 * it beside the older uuid owner). The schema is Supabase's, never altered here: the local Storage
 * writes the columns every version has, and owner_id where it exists, as Supabase Storage does.
 */
async function hasOwnerId(tx: Tx): Promise<boolean> {
  const [r] = await tx<{ n: number }[]>`
    select count(*)::int as n from information_schema.columns
    where table_schema = 'storage' and table_name = 'objects' and column_name = 'owner_id'`
  return r!.n > 0
}

/** Postgres' RLS refusal of a write (42501) as Supabase Storage answers it. */
function refusedByPolicy(err: unknown): never {
  if ((err as { code?: string }).code === '42501')
    throw new StorageError(403, 'Unauthorized', 'new row violates row-level security policy')
  throw err
}

export async function insertObject(
  tx: Tx,
  row: {
    bucket: string
    name: string
    owner: string | null
    metadata: ObjectRow['metadata']
    upsert: boolean
  },
): Promise<{ id: string; replaced: boolean }> {
  const existing = await tx<{ id: string }[]>`
    select id from storage.objects where bucket_id = ${row.bucket} and name = ${row.name} for update`
  const ownerId = await hasOwnerId(tx)
  if (existing[0] && !row.upsert) throw new StorageError(409, 'Duplicate', 'The resource already exists')
  if (existing[0]) {
    const updated = await (ownerId
      ? tx<{ id: string }[]>`
          update storage.objects set metadata = ${tx.json(row.metadata)}, updated_at = now(), owner = ${row.owner},
            owner_id = ${row.owner}
          where id = ${existing[0].id} returning id`
      : tx<{ id: string }[]>`
          update storage.objects set metadata = ${tx.json(row.metadata)}, updated_at = now(), owner = ${row.owner}
          where id = ${existing[0].id} returning id`
    ).catch(refusedByPolicy)
    if (!updated[0]) throw new StorageError(403, 'Unauthorized', 'new row violates row-level security policy')
    return { id: updated[0].id, replaced: true }
  }
  const [inserted] = await (ownerId
    ? tx<{ id: string }[]>`
        insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
        values (${row.bucket}, ${row.name}, ${row.owner}, ${row.owner}, ${tx.json(row.metadata)})
        returning id`
    : tx<{ id: string }[]>`
        insert into storage.objects (bucket_id, name, owner, metadata)
        values (${row.bucket}, ${row.name}, ${row.owner}, ${tx.json(row.metadata)})
        returning id`
  ).catch(refusedByPolicy)
  return { id: inserted!.id, replaced: false }
}

export async function findObject(tx: Tx, bucket: string, name: string): Promise<ObjectRow | null> {
  const [row] = await tx<ObjectRow[]>`
    select id, bucket_id, name, owner, created_at, updated_at, last_accessed_at, metadata
    from storage.objects where bucket_id = ${bucket} and name = ${name}`
  return row ?? null
}

export async function deleteObjects(tx: Tx, bucket: string, names: string[]): Promise<ObjectRow[]> {
  return tx<ObjectRow[]>`
    delete from storage.objects where bucket_id = ${bucket} and name = any(${names})
    returning id, bucket_id, name, owner, created_at, updated_at, last_accessed_at, metadata`
}

/**
 * One folder level under `prefix`, as Supabase's list answers: objects directly in it, and each
 * deeper folder once (id null). `search` filters by the entry's name.
 */
export async function listObjects(
  tx: Tx,
  bucket: string,
  opts: {
    prefix: string
    limit: number
    offset: number
    search: string
    column: string
    order: 'asc' | 'desc'
  },
) {
  const base = opts.prefix === '' ? '' : `${opts.prefix.replace(/\/+$/, '')}/`
  const escaped = base.replace(/[\\%_]/g, (ch) => `\\${ch}`)
  const rows = await tx<(ObjectRow & { entry: string; is_folder: boolean })[]>`
    with entries as (
      select split_part(substr(name, ${base.length + 1}), '/', 1) as entry,
             position('/' in substr(name, ${base.length + 1})) > 0 as is_folder,
             id, name, owner, created_at, updated_at, last_accessed_at, metadata
      from storage.objects where bucket_id = ${bucket} and name like ${`${escaped}%`}
    )
    select distinct on (entry, is_folder) entry, is_folder,
           case when is_folder then null else id end as id,
           case when is_folder then null else created_at end as created_at,
           case when is_folder then null else updated_at end as updated_at,
           case when is_folder then null else last_accessed_at end as last_accessed_at,
           case when is_folder then null else metadata end as metadata
    from entries
    where ${opts.search} = '' or entry ilike ${`%${opts.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`}
    order by entry, is_folder`
  const key = opts.column as 'entry' | 'created_at' | 'updated_at'
  const sorted = rows.sort((a, b) => {
    const av = key === 'entry' ? a.entry : (a[key]?.getTime() ?? 0)
    const bv = key === 'entry' ? b.entry : (b[key]?.getTime() ?? 0)
    const cmp = av < bv ? -1 : av > bv ? 1 : 0
    return opts.order === 'asc' ? cmp : -cmp
  })
  return sorted.slice(opts.offset, opts.offset + opts.limit).map((r) => ({
    name: r.entry,
    id: r.id,
    updated_at: r.updated_at?.toISOString() ?? null,
    created_at: r.created_at?.toISOString() ?? null,
    last_accessed_at: r.last_accessed_at?.toISOString() ?? null,
    metadata: r.metadata,
  }))
}
