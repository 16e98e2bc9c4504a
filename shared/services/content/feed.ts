import { type Queryable, readAsTenant, type TenantRef } from '@shared/infra/db.ts'
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
 * One feed of a tenant's sites and articles in a stable order (created_at, id), read a page at a
 * time by keyset. Runs inside withTenant, where row-level security also applies; the tenant
 * filter picks the active tenant among the user's tenants. The query itself, for the benchmark's
 * bare route; callers use listContent.
 */
export function queryContent(
  db: Queryable,
  tenantId: TenantRef,
  after: Cursor | null,
  limit: number,
  filter: ContentFilter = {},
): Promise<ContentRow[]> {
  const articleFilters = filter.status !== undefined || filter.published_since !== undefined
  const wantSites = filter.type !== 'article' && !articleFilters
  const wantArticles = filter.type !== 'site'
  const desc = filter.newestFirst === true
  const page = after
    ? desc
      ? db`and (created_at, id) < (${after.at}, ${after.id})`
      : db`and (created_at, id) > (${after.at}, ${after.id})`
    : db``
  const words = filter.q?.split(/\s+/).filter(Boolean) ?? []
  const matching = (column: 'name' | 'title') =>
    words.reduce(
      (acc, w) =>
        column === 'name'
          ? db`${acc} and name ilike ${likePattern(w)}`
          : db`${acc} and title ilike ${likePattern(w)}`,
      db``,
    )
  return db<ContentRow[]>`
    select * from (
      select 'site' as object, id, null::uuid as site_id, name, domain, null as status, null::timestamptz as published_at, created_at, updated_at
      from public.sites
      where ${wantSites} and tenant_id = ${tenantId} ${filter.site_id ? db`and id = ${filter.site_id}` : db``} ${matching('name')} ${page}
      union all
      select 'article', id, site_id, title, null, status, published_at, created_at, updated_at
      from public.articles
      where ${wantArticles} and tenant_id = ${tenantId}
        ${filter.site_id ? db`and site_id = ${filter.site_id}` : db``}
        ${filter.status ? db`and status = ${filter.status}` : db``}
        ${filter.published_since ? db`and published_at >= ${filter.published_since}` : db``}
        ${matching('title')}
        ${page}
    ) content
    ${desc ? db`order by created_at desc, id desc` : db`order by created_at, id`}
    limit ${limit + 1}`
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
