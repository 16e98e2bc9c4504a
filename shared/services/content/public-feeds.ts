import type { RequestClaims } from '@shared/infra/db.ts'
import { readAsTenant } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { XMLBuilder } from 'fast-xml-parser'
import { generateAtomFeed, generateJsonFeed, generateRssFeed } from 'feedsmith'
import { excerptOf, renderHtml } from './render.ts'
import type { Site } from './schema.ts'

/**
 * A site's public feeds (RSS 2.0, Atom, JSON Feed) and sitemap, for readers who send no key
 * (docs/content.md, docs/adr/0033-public-feeds.md). Served only while the site's public_feeds
 * setting is on; what they show is exactly what a published-only key of the tenant reads: the
 * rows are read under row-level security with a published-only key's claims (published_only:
 * true, as the tenant's first owner, as the service role's calls act), so the restrictive
 * policies hide drafts, scheduled articles and revisions, and the tenant's claims hide every other
 * tenant's rows. Links follow the site's article_url_pattern.
 */

/** URLs one sitemap file holds at most (sitemaps.org); past it, sitemap.xml is an index of files. */
export const SITEMAP_MAX_URLS = 50_000

export interface PublicSite {
  id: string
  tenantId: string
  name: string
  domain: string | null
  articleUrlPattern: string | null
  schemaType: Site['article_schema_type']
  updatedAt: Date
  /** The claims its rows are read with: a published-only key's, as the tenant's first owner. */
  claims: RequestClaims
}

/**
 * The claims a public feed reads with: those a published-only platform key of the tenant carries
 * (shared/infra/http/authenticate/api-key.ts), acting as `userId`. The one place a public route
 * makes claims; the restrictive policies of published-only keys apply to it as to such a key.
 */
const publishedOnlyClaims = (tenantId: string, userId: string): RequestClaims => ({
  sub: userId,
  role: 'authenticated',
  app_metadata: { tenant_id: tenantId },
  published_only: true,
})

/**
 * The site whose feeds are public, by id. NOT_FOUND alike for an unknown site and one whose
 * feeds are off, so a reader learns nothing of sites that are not public. The owner pool runs
 * private.public_feed_site, which reads the site's row and its tenant's first owner and nothing
 * else: no tenant is known before it.
 */
export async function findPublicSite(deps: Pick<FunctionDeps, 'sql'>, siteId: string): Promise<PublicSite> {
  const [row] = await deps.sql<
    {
      tenant_id: string
      acting_user_id: string
      name: string
      domain: string | null
      article_url_pattern: string | null
      article_schema_type: Site['article_schema_type']
      updated_at: Date
    }[]
  >`select * from private.public_feed_site(${siteId}::uuid)`
  if (!row) throw notFound('Site')
  return {
    id: siteId,
    tenantId: row.tenant_id,
    name: row.name,
    domain: row.domain,
    articleUrlPattern: row.article_url_pattern,
    schemaType: row.article_schema_type,
    updatedAt: row.updated_at,
    claims: publishedOnlyClaims(row.tenant_id, row.acting_user_id),
  }
}

/**
 * An article's address on the web: the site's pattern with the slug (and its locale for a
 * `{locale}` in it), or https://{domain}/{slug}.
 */
export function articleUrl(
  site: { articleUrlPattern: string | null; domain: string | null },
  slug: string,
  locale: string,
): string | null {
  if (site.articleUrlPattern)
    return site.articleUrlPattern
      .replaceAll('{slug}', encodeURIComponent(slug))
      .replaceAll('{locale}', encodeURIComponent(locale))
  if (site.domain) return `https://${site.domain}/${encodeURIComponent(slug)}`
  return null
}

/** The site's home on the web: the pattern's origin, or https://{domain}/. */
function siteHomeUrl(site: { articleUrlPattern: string | null; domain: string | null }): string | null {
  if (site.articleUrlPattern)
    return `${new URL(site.articleUrlPattern.replaceAll('{slug}', 'x').replaceAll('{locale}', 'x')).origin}/`
  if (site.domain) return `https://${site.domain}/`
  return null
}

interface FeedArticle {
  id: string
  slug: string
  title: string
  body: string
  excerpt: string | null
  feature_image_url: string | null
  author_name: string | null
  published_at: Date
  updated_at: Date
  tags: string[]
  locale: string
}

/**
 * The site's latest published articles (newest first), optionally only those with the tag `tag`
 * (a slug), read under row-level security as a published-only key.
 */
function readFeedArticles(
  deps: Pick<FunctionDeps, 'sql'>,
  site: PublicSite,
  opts: { limit: number; tag?: string; locale?: string },
): Promise<FeedArticle[]> {
  return readAsTenant(
    deps.sql,
    site.claims,
    (q) => q<FeedArticle[]>`
      select a.id, a.slug, a.locale, a.title, a.body, a.excerpt, a.feature_image_url,
             (select n.name from private.author_names(array[a.author_id]) n) as author_name,
             a.published_at, a.updated_at,
             coalesce((select array_agg(t.name order by x.position)
                       from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                       where x.article_id = a.id), '{}') as tags
      from public.articles a
      where a.tenant_id = ${site.tenantId} and a.site_id = ${site.id} and a.status = 'published'
        ${
          opts.tag
            ? q`and exists (select 1 from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id
                  and t.id = x.tag_id where x.article_id = a.id and t.slug = ${opts.tag})`
            : q``
        }
        ${opts.locale ? q`and a.locale = ${opts.locale}` : q``}
      order by a.published_at desc, a.id desc
      limit ${opts.limit}`,
  )
}

/** Rendered HTML kept per instance, at most this many articles (the oldest used go first). */
const RENDERED_MAX = 2_000
const rendered = new Map<string, string>()

/**
 * An article's HTML, rendered once per version: keyed by the article and its updated_at, which
 * every write of its body moves, so an entry is never stale, only unused. Rendering (markdown-it
 * then sanitize-html) was nine tenths of a feed's cost.
 */
function renderedHtml(a: Pick<FeedArticle, 'id' | 'updated_at' | 'body'>): string {
  const key = `${a.id}:${a.updated_at.getTime()}`
  const hit = rendered.get(key)
  if (hit !== undefined) {
    rendered.delete(key)
    rendered.set(key, hit)
    return hit
  }
  const html = renderHtml(a.body)
  rendered.set(key, html)
  if (rendered.size > RENDERED_MAX) rendered.delete(rendered.keys().next().value!)
  return html
}

export type FeedFormat = 'rss' | 'atom' | 'json'

const feedContentTypes: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
}

/** A rendered document and when what it shows last changed (for Last-Modified). */
export interface PublicDocument {
  text: string
  contentType: string
  lastModified: Date
}

/**
 * feedsmith indents its XML, and so puts a line break and indentation between an element's tags
 * and its CDATA section: whitespace that becomes part of the element's text (a title "\n  Roses
 * & <thorns>\n"). Only that formatting is removed; the text inside the CDATA is untouched.
 */
const tightCdata = (xml: string) =>
  xml.replace(/>\n\s*<!\[CDATA\[/g, '><![CDATA[').replace(/\]\]>\n\s*<\//g, ']]></')

const latest = (dates: Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())))

/**
 * One feed of the site's latest published articles. `selfUrl` is the feed's own public address
 * (the request's), named in the feed as readers expect.
 */
export async function renderFeed(
  deps: Pick<FunctionDeps, 'sql'>,
  site: PublicSite,
  format: FeedFormat,
  opts: { limit: number; tag?: string; locale?: string; selfUrl: string },
): Promise<PublicDocument> {
  const articles = await readFeedArticles(deps, site, opts)
  const home = siteHomeUrl(site) ?? opts.selfUrl
  const title = opts.tag ? `${site.name}: ${opts.tag}` : site.name
  const lastModified = latest([site.updatedAt, ...articles.map((a) => a.updated_at)])
  const items = articles.map((a) => ({
    a,
    url: articleUrl(site, a.slug, a.locale) ?? home,
    summary: a.excerpt ?? excerptOf(a.body),
    html: renderedHtml(a),
  }))
  const contentType = feedContentTypes[format]
  if (format === 'rss')
    return {
      contentType,
      lastModified,
      text: tightCdata(
        generateRssFeed({
          title,
          link: home,
          description: `The latest articles of ${site.name}`,
          ...(opts.locale && { language: opts.locale }),
          lastBuildDate: lastModified,
          atom: { links: [{ href: opts.selfUrl, rel: 'self', type: 'application/rss+xml' }] },
          items: items.map(({ a, url, summary, html }) => ({
            title: a.title,
            link: url,
            guid: { value: url, isPermaLink: true },
            description: summary,
            content: { encoded: html },
            pubDate: a.published_at,
            categories: a.tags.map((name) => ({ name })),
            ...(a.author_name && { dc: { creators: [a.author_name] } }),
          })),
        }),
      ),
    }
  if (format === 'atom')
    return {
      contentType,
      lastModified,
      text: tightCdata(
        generateAtomFeed({
          id: opts.selfUrl,
          title: { value: title },
          updated: lastModified,
          links: [
            { href: home, rel: 'alternate', type: 'text/html' },
            { href: opts.selfUrl, rel: 'self', type: 'application/atom+xml' },
          ],
          entries: items.map(({ a, url, summary, html }) => ({
            id: `urn:uuid:${a.id}`,
            title: { value: a.title },
            updated: a.updated_at,
            published: a.published_at,
            links: [{ href: url, rel: 'alternate', type: 'text/html' }],
            summary: { value: summary },
            content: { value: html, type: 'html' },
            authors: [{ name: a.author_name ?? site.name }],
            categories: a.tags.map((term) => ({ term })),
          })),
        }),
      ),
    }
  return {
    contentType,
    lastModified,
    text: JSON.stringify(
      generateJsonFeed({
        title,
        home_page_url: home,
        feed_url: opts.selfUrl,
        ...(opts.locale && { language: opts.locale }),
        items: items.map(({ a, url, summary, html }) => ({
          id: a.id,
          url,
          title: a.title,
          content_html: html,
          summary,
          date_published: a.published_at,
          date_modified: a.updated_at,
          tags: a.tags,
          // A library image (media:<id>) has no public URL of its own here: only https ones go out.
          ...(a.feature_image_url?.startsWith('https://') && { image: a.feature_image_url }),
          ...(a.author_name && { authors: [{ name: a.author_name }] }),
        })),
      }),
    ),
  }
}

const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: false })
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/**
 * sitemap.xml: every published article of the site with its last change, in one file up to
 * SITEMAP_MAX_URLS; past that an index of files (page 1, 2, ... at `pageUrl(n)`), each file one
 * slice in a stable order (oldest first, then id). `page` null is sitemap.xml itself.
 */
export async function renderSitemap(
  deps: Pick<FunctionDeps, 'sql'>,
  site: PublicSite,
  page: number | null,
  pageUrl: (n: number) => string,
): Promise<PublicDocument> {
  const contentType = 'application/xml; charset=utf-8'
  const stats = await readAsTenant(
    deps.sql,
    site.claims,
    (q) => q<{ n: number; last: Date | null }[]>`
      select count(*)::int as n, max(a.updated_at) as last from public.articles a
      where a.tenant_id = ${site.tenantId} and a.site_id = ${site.id} and a.status = 'published'`,
  )
  const { n, last } = stats[0]!
  const pages = Math.max(1, Math.ceil(n / SITEMAP_MAX_URLS))
  const lastModified = latest([site.updatedAt, ...(last ? [last] : [])])
  if (page === null && pages > 1) {
    const body = {
      '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
      sitemapindex: {
        '@_xmlns': SITEMAP_NS,
        sitemap: Array.from({ length: pages }, (_, i) => ({
          loc: pageUrl(i + 1),
          lastmod: lastModified.toISOString(),
        })),
      },
    }
    return { contentType, lastModified, text: xml.build(body) }
  }
  const index = (page ?? 1) - 1
  if (index >= pages) throw notFound('Sitemap page')
  const rows = await readAsTenant(
    deps.sql,
    site.claims,
    (q) => q<{ slug: string; locale: string; updated_at: Date }[]>`
      select a.slug, a.locale, a.updated_at from public.articles a
      where a.tenant_id = ${site.tenantId} and a.site_id = ${site.id} and a.status = 'published'
      order by a.published_at, a.id
      limit ${SITEMAP_MAX_URLS} offset ${index * SITEMAP_MAX_URLS}`,
  )
  const body = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    urlset: {
      '@_xmlns': SITEMAP_NS,
      url: rows.flatMap((r) => {
        const loc = articleUrl(site, r.slug, r.locale)
        return loc ? [{ loc, lastmod: r.updated_at.toISOString() }] : []
      }),
    },
  }
  return { contentType, lastModified, text: xml.build(body) }
}
