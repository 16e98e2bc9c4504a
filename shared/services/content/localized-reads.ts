import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { queryArticleBySlug } from './article-reads.ts'
import { type ArticleRow, type ContentFormat, presentArticle, selectArticle } from './article-row.ts'
import { articleUrl } from './public-feeds.ts'
import type { Article } from './schema.ts'
import type { ArticleGroupColumns } from './translation-slots.ts'

/**
 * The reads by id and by slug in a locale, with the article's alternates (docs/content.md
 * "Translations"). With `locale`, the named article's translation group gives its article in that
 * locale, else the one in the site's default locale, else the named article itself; without it, the
 * named article. Either way the answer lists the group's articles the caller may read (row-level
 * security: a published-only key sees the published ones only), each with its address on the site.
 */

type GroupRow = ArticleRow & ArticleGroupColumns

/** The alternates' columns, beside selectArticle's: the group's articles and the site's link settings. */
const groupColumns = (q: Queryable) => q`,
  (select json_agg(json_build_object('id', v.id, 'locale', v.locale, 'slug', v.slug, 'status', v.status) order by v.locale)
   from public.articles v
   where v.tenant_id = a.tenant_id and coalesce(v.translation_of, v.id) = coalesce(a.translation_of, a.id)) as alternates,
  (select json_build_object('article_url_pattern', s.article_url_pattern, 'domain', s.domain)
   from public.sites s where s.id = a.site_id) as site_links`

/** The article with its alternates, each with its URL on the site. */
function presentLocalized(row: GroupRow, formats: readonly ContentFormat[]): Article {
  const links = {
    articleUrlPattern: row.site_links?.article_url_pattern ?? null,
    domain: row.site_links?.domain ?? null,
  }
  return {
    ...presentArticle(row, formats),
    alternates: (row.alternates ?? []).map((v) => ({ ...v, url: articleUrl(links, v.slug, v.locale) })),
  }
}

async function readById(q: Queryable, tenantId: string, id: string, locale: string | null) {
  if (locale === null) {
    const [row] = await q<GroupRow[]>`
      ${selectArticle(q, groupColumns(q))} where a.id = ${id} and a.tenant_id = ${tenantId}`
    return row
  }
  const [row] = await q<GroupRow[]>`
    with named as (
      select n.id, n.site_id, coalesce(n.translation_of, n.id) as group_id from public.articles n
      where n.id = ${id} and n.tenant_id = ${tenantId}
    ), chosen as (
      select v.id from named join public.articles v
        on v.tenant_id = ${tenantId} and coalesce(v.translation_of, v.id) = named.group_id
      order by v.locale = ${locale} desc,
               v.locale = (select st.default_locale from public.sites st where st.id = named.site_id) desc,
               v.id = named.id desc
      limit 1
    )
    ${selectArticle(q, groupColumns(q))} where a.id = (select chosen.id from chosen) and a.tenant_id = ${tenantId}`
  return row
}

/** An article by id, in `locale` when its group has it (fallback above); NOT_FOUND as getArticle. */
export async function getLocalizedArticle(
  ctx: ServiceContext,
  id: string,
  formats: readonly ContentFormat[] = ['markdown'],
  locale: string | null = null,
): Promise<Article> {
  const row = await ctx.readAsTenant((q) => readById(q, ctx.caller.tenantId, id, locale))
  if (!row) throw notFound('Article')
  return presentLocalized(row, formats)
}

/** What a read by slug finds: the article, or where an old slug of a published article now points. */
export type ArticleBySlug = { article: Article } | { redirect_to: string; article_id: string }

/**
 * One article by its slug in a site (in `locale` when its group has it); an old slug of a
 * published article gives the slug it moved to. NOT_FOUND for another tenant's site and, for a
 * published-only key, for anything not published (row-level security hides it). One statement:
 * private.article_by_slug sets role authenticated and the caller's claims itself and reads under
 * row-level security, as GET /v1/content's feed does (the owner pool only runs the function).
 */
export async function getArticleBySlug(
  ctx: ServiceContext,
  siteId: string,
  slug: string,
  formats: readonly ContentFormat[] = ['markdown'],
  locale: string | null = null,
): Promise<ArticleBySlug> {
  const { caller } = ctx
  const [found] = await queryArticleBySlug(ctx.asOwner, caller.claims, caller.tenantId, siteId, slug, locale)
  if (!found) throw notFound('Article')
  if (found.redirect_to) return { redirect_to: found.redirect_to, article_id: found.id }
  return { article: presentLocalized(found, formats) }
}
