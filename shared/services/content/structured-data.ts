import { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { articleUrl } from './public-feeds.ts'
import type { Article, Site } from './schema.ts'

/**
 * What a site needs to render an article's <head> without building it: the canonical URL, the
 * alternates (<link rel="alternate">: the article on the site when canonical_url points elsewhere,
 * the site's public feeds) and a schema.org Article, NewsArticle or BlogPosting object for
 * <script type="application/ld+json">, with the fields search engines ask for (headline, image,
 * datePublished, dateModified, author, publisher). Built from the read by slug and the site's
 * settings; docs/content.md.
 */

/** Search engines cut headlines past 110 characters. */
const MAX_HEADLINE = 110

export const seoSchema = z
  .object({
    canonical_url: z.string().nullable().openapi({
      description:
        "The article's canonical_url, or its address by the site's article_url_pattern (or domain)",
    }),
    alternates: z
      .array(
        z.object({
          href: z.string(),
          type: z.string(),
          title: z.string().optional(),
          hreflang: z.string().optional(),
        }),
      )
      .openapi({
        description:
          '<link rel="alternate"> entries: the article on the site, its published translations (hreflang, and x-default for the site’s default locale), the site’s public feeds',
      }),
    json_ld: z.record(z.string(), z.unknown()).openapi({
      description:
        'A schema.org Article (or the site’s article_schema_type) for <script type="application/ld+json">',
    }),
  })
  .openapi('ArticleSeo')

export type ArticleSeo = z.infer<typeof seoSchema>

interface SiteForSeo {
  name: string
  domain: string | null
  public_feeds: boolean
  article_url_pattern: string | null
  article_schema_type: Site['article_schema_type']
  default_locale: string
}

/** The article's site as the caller sees it (row-level security: a published-only key sees sites too). */
async function readSite(ctx: ServiceContext, siteId: string): Promise<SiteForSeo> {
  const [site] = await ctx.readAsTenant(
    (q) => q<SiteForSeo[]>`
      select name, domain, public_feeds, article_url_pattern, article_schema_type, default_locale from public.sites
      where id = ${siteId} and tenant_id = ${ctx.caller.tenantId}`,
  )
  if (!site) throw notFound('Site')
  return site
}

/** The article with `seo` beside it: one more read (the site's settings). */
export async function withStructuredData(
  ctx: ServiceContext,
  article: Article,
  feedsBaseUrl: string,
): Promise<Article & { seo: ArticleSeo }> {
  const site = await readSite(ctx, article.site_id)
  return { ...article, seo: structuredData(article, site, feedsBaseUrl) }
}

function structuredData(article: Article, site: SiteForSeo, feedsBaseUrl: string): ArticleSeo {
  const links = { articleUrlPattern: site.article_url_pattern, domain: site.domain }
  const onSite = articleUrl(links, article.slug, article.locale)
  const canonical = article.canonical_url ?? onSite
  const alternates: ArticleSeo['alternates'] = []
  if (onSite && onSite !== canonical) alternates.push({ href: onSite, type: 'text/html' })
  // hreflang: the group's published articles with an address (a page names itself too), and
  // x-default for the one in the site's default locale. Drafts a full key sees are left out.
  const translations = (article.alternates ?? []).filter(
    (v): v is typeof v & { url: string } => v.status === 'published' && v.url !== null,
  )
  if (translations.length > 1 || (translations.length === 1 && translations[0]!.id !== article.id)) {
    for (const v of translations) alternates.push({ href: v.url, type: 'text/html', hreflang: v.locale })
    const fallback = translations.find((v) => v.locale === site.default_locale)
    if (fallback) alternates.push({ href: fallback.url, type: 'text/html', hreflang: 'x-default' })
  }
  const source = translations.find((v) => v.id === article.translation_of)
  const others = translations.filter((v) => v.id !== article.id)
  if (site.public_feeds) {
    const base = `${feedsBaseUrl.replace(/\/$/, '')}/feeds/${article.site_id}`
    alternates.push(
      { href: `${base}/rss.xml`, type: 'application/rss+xml', title: site.name },
      { href: `${base}/atom.xml`, type: 'application/atom+xml', title: site.name },
      { href: `${base}/feed.json`, type: 'application/feed+json', title: site.name },
    )
  }
  const headline = article.meta_title ?? article.title
  const jsonLd: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': site.article_schema_type,
    headline: headline.length > MAX_HEADLINE ? `${headline.slice(0, MAX_HEADLINE - 1)}…` : headline,
    inLanguage: article.locale,
    description: article.meta_description ?? article.excerpt,
    ...(article.published_at && { datePublished: article.published_at }),
    dateModified: article.updated_at,
    ...(article.feature_image && { image: [article.feature_image.url] }),
    ...(article.author && { author: [{ '@type': 'Person', name: article.author.name }] }),
    publisher: {
      '@type': 'Organization',
      name: site.name,
      ...(site.domain && { url: `https://${site.domain}/` }),
    },
    ...(canonical && { url: canonical, mainEntityOfPage: { '@type': 'WebPage', '@id': canonical } }),
    ...(article.tags.length > 0 && { keywords: article.tags.map((t) => t.name).join(', ') }),
    // schema.org's links between a work and its translations, by their canonical addresses.
    ...(source && { translationOfWork: { '@id': source.url } }),
    ...(!article.translation_of &&
      others.length > 0 && {
        workTranslation: others.map((v) => ({
          '@type': site.article_schema_type,
          '@id': v.url,
          inLanguage: v.locale,
        })),
      }),
  }
  return { canonical_url: canonical, alternates, json_ld: jsonLd }
}
