import type { TenantCaller } from '@shared/infra/caller.ts'
import type { Queryable, RequestClaims, Sql } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { type Cursor, type Page, paginate } from '@shared/infra/pagination.ts'
import { type ArticleRow, type ContentFormat, presentArticle, selectArticle } from './article-row.ts'
import type { Article } from './schema.ts'

export interface ContentRow {
  object: 'site' | 'article'
  id: string
  site_id: string | null
  slug: string
  name: string
  domain: string | null
  status: string | null
  published_at: Date | null
  created_at: Date
  updated_at: Date
  /** Articles: when the draft was submitted for review (null for sites). */
  review_requested_at: Date | null
  /** Articles: BCP 47 (null for sites). */
  locale: string | null
}

export interface ContentFilter {
  site_id?: string
  status?: 'draft' | 'scheduled' | 'published'
  published_since?: Date
  published_before?: Date
  /** Articles carrying the tag with this slug. */
  tag?: string
  /** Articles by this author (a user id). */
  author?: string
  /** Only drafts submitted for review (review_requested_at set). */
  review?: 'requested'
  type?: 'site' | 'article'
  /** Words that must all appear in a site's name or an article's title (case-insensitive). */
  q?: string
  /** Each translation group's article in this locale, else in its site's default locale, else its source. */
  locale?: string
  /** Newest first instead of oldest first (the cursor then walks backwards). */
  newestFirst?: boolean
}

/** A LIKE pattern that matches the word literally (%, _ and \\ escaped). */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * One page (limit + 1 rows) of a tenant's sites and articles in one statement
 * (private.content_feed). With `claims` the function sets role authenticated, the claims and the
 * tenant itself and reads under row-level security, all inside the statement's transaction: the
 * platform's reads (GET /v1/content, the MCP content resources and tools). Four pipelined
 * statements (BEGIN, settings, read, COMMIT) cost the server and the driver a protocol cycle each;
 * see docs/adr/0004-rate-limits-in-postgres.md. With `claims` null it reads as the pool's role: as
 * the database owner, the benchmarks' bare read of the same query. `owner` is the platform's pool:
 * the function is granted to no API role, since it takes the claims as an argument.
 */
export function queryContent(
  owner: Queryable,
  claims: RequestClaims | null,
  tenantId: string,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
): Promise<ContentRow[]> {
  const words = opts.filter?.q?.split(/\s+/).filter(Boolean).map(likePattern) ?? []
  const after = opts.after ?? null
  const filter = opts.filter ?? {}
  return owner<ContentRow[]>`
    select * from private.content_feed(${claims ? JSON.stringify(claims) : null}::text, ${tenantId}::uuid,
      ${opts.limit}::int, ${after?.at ?? null}::timestamptz, ${after?.id ?? null}::uuid,
      ${filter.newestFirst === true}::boolean, ${filter.type ?? null}::text, ${filter.site_id ?? null}::uuid,
      ${filter.status ?? null}::text, ${filter.published_since ?? null}::timestamptz, ${words}::text[],
      ${filter.tag ?? null}::text, ${filter.author ?? null}::uuid, ${filter.published_before ?? null}::timestamptz,
      ${filter.review === 'requested'}::boolean, ${filter.locale ?? null}::text)`
}

/** The page for a signed-in caller: its claims, its active tenant, under row-level security. */
export function readContentAsTenant(
  owner: Sql,
  caller: TenantCaller,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
): Promise<ContentRow[]> {
  return queryContent(owner, caller.claims, caller.tenantId, opts)
}

// Object literals, not a shared base spread into each: spreading cost three times as much (about
// 70 µs against 20 µs a page of 21 rows), on the hottest read of the API.
export function presentContent(row: ContentRow) {
  return row.object === 'site'
    ? {
        object: row.object,
        id: row.id,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        slug: row.slug,
        name: row.name,
        domain: row.domain,
      }
    : {
        object: row.object,
        id: row.id,
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
        site_id: row.site_id,
        slug: row.slug,
        title: row.name,
        status: row.status,
        published_at: row.published_at?.toISOString() ?? null,
        review_requested_at: row.review_requested_at?.toISOString() ?? null,
        locale: row.locale,
      }
}

export type ContentItem = ReturnType<typeof presentContent>

/** A page of the tenant's feed (sites and articles, oldest first), read as the tenant. */
export async function listContent(
  ctx: ServiceContext,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
): Promise<Page<ContentItem>> {
  // One statement that sets the caller's claims and reads under row-level security, as
  // GET /v1/content does (the owner pool only runs the function; the policies decide the rows).
  const rows = await readContentAsTenant(ctx.asOwner, ctx.caller, opts)
  return contentPage(rows, opts.limit)
}

/**
 * A page of the feed with each article whole, its body in `formats` (GET /v1/content?formats=…):
 * a site's build reads a page of up to 100 articles in one metered request instead of one read per
 * article. The feed statement stays the hot path's own; the articles on the page are read in a
 * second statement as the caller (row-level security: a published-only key gets what it may read).
 * An article gone between the two reads keeps its summary.
 */
export async function listContentWhole(
  ctx: ServiceContext,
  opts: { limit: number; after?: Cursor | null; filter?: ContentFilter },
  formats: readonly ContentFormat[],
): Promise<Page<ContentItem | Article>> {
  const page = await listContent(ctx, opts)
  const ids = page.data.filter((item) => item.object === 'article').map((item) => item.id)
  if (ids.length === 0) return page
  const { tenantId } = ctx.caller
  const rows = await ctx.readAsTenant(
    (q) =>
      q<ArticleRow[]>`${selectArticle(q)} where a.tenant_id = ${tenantId} and a.id = any(${ids}::uuid[])`,
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  return {
    ...page,
    data: page.data.map((item) => {
      const row = byId.get(item.id)
      return row ? presentArticle(row, formats) : item
    }),
  }
}

/** The page of queryContent's limit+1 rows, as the API presents it. */
function contentPage(rows: ContentRow[], limit: number): Page<ContentItem> {
  return paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }), presentContent)
}
