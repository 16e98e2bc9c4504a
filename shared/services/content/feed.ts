import type { TenantCaller } from '@shared/infra/auth.ts'
import type { Queryable, Sql } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { type Cursor, type Page, paginate } from '@shared/infra/pagination.ts'

export interface ContentRow {
  object: 'site' | 'article'
  id: string
  site_id: string | null
  name: string
  domain: string | null
  status: string | null
  published_at: Date | null
  created_at: Date
  updated_at: Date
}

export interface ContentFilter {
  site_id?: string
  status?: 'draft' | 'published'
  published_since?: Date
  type?: 'site' | 'article'
  /** Words that must all appear in a site's name or an article's title (case-insensitive). */
  q?: string
  /** Newest first instead of oldest first (the cursor then walks backwards). */
  newestFirst?: boolean
}

/** A LIKE pattern that matches the word literally (%, _ and \\ escaped). */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The feed's arguments after the tenant, in private.content_feed's order: a page by keyset, in a
 * stable order (created_at, id), the filters, and the words as ILIKE patterns that must all match.
 */
function feedArguments(db: Queryable, after: Cursor | null, limit: number, filter: ContentFilter) {
  const words = filter.q?.split(/\s+/).filter(Boolean).map(likePattern) ?? []
  return db`${limit}::int, ${after?.at ?? null}::timestamptz, ${after?.id ?? null}::uuid,
    ${filter.newestFirst === true}::boolean, ${filter.type ?? null}::text, ${filter.site_id ?? null}::uuid,
    ${filter.status ?? null}::text, ${filter.published_since ?? null}::timestamptz, ${words}::text[]`
}

/**
 * One page (limit + 1 rows) of a tenant's sites and articles, read with whatever role `db` has:
 * inside ctx.readAsTenant row-level security applies and the tenant filter picks the active
 * tenant among the user's; as the database owner it is the benchmark's bare read of the same query.
 */
export function queryContent(
  db: Queryable,
  tenantId: string,
  after: Cursor | null,
  limit: number,
  filter: ContentFilter = {},
): Promise<ContentRow[]> {
  return db<ContentRow[]>`
    select * from private.content_feed(${tenantId}::uuid, ${feedArguments(db, after, limit, filter)})`
}

/**
 * The same page for a signed-in caller in one statement (the hot read, GET /v1/content):
 * private.content_feed_as_tenant sets role authenticated and the caller's claims and reads under
 * row-level security, all inside the one statement's transaction. Four pipelined statements
 * (BEGIN, settings, read, COMMIT) cost the server and the driver a protocol cycle each; see
 * docs/adr/0004-rate-limits-in-postgres.md. `owner` is the platform's pool: the function is
 * granted to no API role, since it takes the claims as an argument.
 */
export function readContentAsTenant(
  owner: Sql,
  caller: TenantCaller,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
): Promise<ContentRow[]> {
  return owner<ContentRow[]>`
    select * from private.content_feed_as_tenant(${JSON.stringify(caller.claims)}, ${caller.tenantId}::uuid,
      ${feedArguments(owner, opts.after ?? null, opts.limit, opts.filter ?? {})})`
}

export function presentContent(row: ContentRow) {
  const base = {
    object: row.object,
    id: row.id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
  return row.object === 'site'
    ? { ...base, name: row.name, domain: row.domain }
    : {
        ...base,
        site_id: row.site_id,
        title: row.name,
        status: row.status,
        published_at: row.published_at?.toISOString() ?? null,
      }
}

export type ContentItem = ReturnType<typeof presentContent>

/** A page of the tenant's feed (sites and articles, oldest first), read as the tenant. */
export async function listContent(
  ctx: ServiceContext,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
): Promise<Page<ContentItem>> {
  const { caller } = ctx
  const rows = await ctx.readAsTenant((q) =>
    queryContent(q, caller.tenantId, opts.after ?? null, opts.limit, opts.filter),
  )
  return contentPage(rows, opts.limit)
}

/** The page of queryContent's limit+1 rows, as the API presents it. */
export function contentPage(rows: ContentRow[], limit: number): Page<ContentItem> {
  return paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }), presentContent)
}
