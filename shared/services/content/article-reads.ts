import type { Queryable, RequestClaims } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type ArticleRow, type ContentFormat, presentArticle, readArticle } from './article-row.ts'
import type { Article, ArticleSource } from './schema.ts'
import type { ArticleGroupColumns } from './translation-slots.ts'

/** Reading one article: by id, the by-slug statement (localized-reads.ts), and its sources. */

export async function getArticle(
  ctx: ServiceContext,
  id: string,
  formats: readonly ContentFormat[] = ['markdown'],
): Promise<Article> {
  const row = await ctx.readAsTenant((q) => readArticle(q, ctx.caller.tenantId, id))
  if (!row) throw notFound('Article')
  return presentArticle(row, formats)
}

/**
 * private.article_by_slug: with claims, as that caller under row-level security; with null, as the
 * pool's role (the benchmarks' bare read as the owner). `owner` is the platform's pool: no API
 * role may execute the function, since it takes the claims as an argument.
 */
export function queryArticleBySlug(
  owner: Queryable,
  claims: RequestClaims | null,
  tenantId: string,
  siteId: string,
  slug: string,
  locale: string | null = null,
): Promise<(ArticleRow & ArticleGroupColumns & { redirect_to: string | null })[]> {
  return owner<(ArticleRow & ArticleGroupColumns & { redirect_to: string | null })[]>`
    select * from private.article_by_slug(${claims ? JSON.stringify(claims) : null}::text, ${tenantId}::uuid,
      ${siteId}::uuid, ${slug}::text, ${locale}::text)`
}

/**
 * The scraped items a generated article was written from, in the order the model saw them;
 * empty for an article written by hand.
 */
export async function listArticleSources(ctx: ServiceContext, id: string): Promise<ArticleSource[]> {
  const { caller } = ctx
  // What an article was made from is the tenant's own business, not a published-only key's.
  if (caller.kind === 'published_key') throw notFound('Article')
  const { found, rows } = await ctx.asTenant(async (tx) => {
    const [article] =
      await tx`select 1 from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!article) return { found: false, rows: [] }
    const rows = await tx<(Omit<ArticleSource, 'published_at'> & { published_at: Date | null })[]>`
      select i.id, i.source_id, s.name as source_name, i.url, i.title, i.author, i.published_at
      from public.article_source_items r
      join public.source_items i on i.id = r.item_id and i.tenant_id = r.tenant_id
      join public.sources s on s.id = i.source_id and s.tenant_id = i.tenant_id
      where r.article_id = ${id} and r.tenant_id = ${caller.tenantId}
      order by coalesce(i.published_at, i.created_at), i.id`
    return { found: true, rows }
  })
  if (!found) throw notFound('Article')
  return rows.map((r) => ({ ...r, published_at: r.published_at?.toISOString() ?? null }))
}
