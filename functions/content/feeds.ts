import { etagOf, matches } from '@functions/content/respond.ts'
import { z } from '@hono/zod-openapi'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { addressBucket } from '@shared/infra/http/authenticate.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { rateLimits } from '@shared/infra/rate-limit.ts'
import { localeField } from '@shared/services/content/locales.ts'
import {
  type FeedFormat,
  findPublicSite,
  type PublicDocument,
  type PublicSite,
  renderFeed,
} from '@shared/services/content/public-feeds.ts'
import { slugField } from '@shared/services/content/schema.ts'
import type { Context } from 'hono'

/**
 * What every public feed route shares: the site id, the per-site, per-address rate limit, and
 * the answer with ETag, Last-Modified and a public Cache-Control (a 304 for a reader that has it).
 */

export const siteParams = z.object({
  site_id: z.uuid().openapi({ param: { name: 'site_id', in: 'path' } }),
})

const feedQuery = z.object({
  tag: slugField()
    .optional()
    .openapi({ description: 'Only articles with this tag (its slug)', example: 'garden' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(20)
    .openapi({ description: 'Articles, newest first' }),
  locale: localeField()
    .optional()
    .openapi({ description: 'Only articles in this locale (BCP 47); the feed names it as its language' }),
})

export const publicDescription =
  ' Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.'

/** Requests a minute one client address may make to one site's feeds and sitemap. */
const FEED_RATE_LIMIT = rateLimits.unauthenticated

/**
 * Charges the client's address for this site (a bucket of its own per site: readers of one site
 * never use up another's, and a reader polling many sites is limited per site), then finds the
 * site and renders the document. The charge comes first, so unknown sites cost the same.
 */
export async function servePublic(
  c: Context<AppEnv>,
  siteId: string,
  render: (site: PublicSite) => Promise<PublicDocument>,
): Promise<Response> {
  const deps = c.get('deps')
  const rl = await hotPathOf(deps).leases.take(
    `feed:${siteId}:${addressBucket(c)}`,
    FEED_RATE_LIMIT,
    deps.clock.now(),
  )
  c.set('rateLimit', rl)
  if (!rl.allowed) throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
  const site = await findPublicSite(deps, siteId)
  // The same cache as published-only keys' reads (docs/adr/0028-published-read-cache.md): what a
  // public document shows is what such a key reads, forgotten when this instance writes the
  // tenant's content or the site's settings, at most CONTENT_READ_CACHE_MS old otherwise. The site
  // is found first on every request, so turning feeds off shows at once.
  const cache = hotPathOf(deps).publishedReads
  const url = new URL(c.req.url)
  const requestKey = `feeds:${url.pathname}${url.search}`
  let answer = cache.get(site.tenantId, requestKey)
  if (!answer) {
    const generation = cache.generation(site.tenantId)
    const doc = await render(site)
    const lastModified = new Date(Math.floor(doc.lastModified.getTime() / 1000) * 1000).toUTCString()
    answer = { text: doc.text, etag: etagOf(doc.text), lastModified, contentType: doc.contentType }
    cache.set(site.tenantId, requestKey, answer, generation)
  }
  const headers = {
    ETag: answer.etag,
    'Last-Modified': answer.lastModified!,
    'Cache-Control': `public, max-age=${deps.config.CONTENT_PUBLIC_MAX_AGE_SECONDS}`,
  }
  if (notModified(c, answer.etag, new Date(answer.lastModified!))) return c.body(null, 304, headers)
  return c.body(answer.text, 200, { ...headers, 'Content-Type': answer.contentType! })
}

/** If-None-Match wins when sent (RFC 9110 13.2.2); otherwise If-Modified-Since. */
function notModified(c: Context<AppEnv>, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = c.req.header('if-none-match')
  if (ifNoneMatch) return matches(ifNoneMatch, etag)
  const since = Date.parse(c.req.header('if-modified-since') ?? '')
  return Number.isFinite(since) && lastModified.getTime() <= since
}

/**
 * A site's public document's stable address (/feeds/{site_id}/{file} under PUBLIC_URL), with
 * the request's query: what a feed names as its own, and the sitemap index its files.
 */
function publicFeedUrl(c: Context<AppEnv>, siteId: string, file: string, withQuery = true): string {
  const search = withQuery ? new URL(c.req.url).search : ''
  return `${c.get('deps').config.PUBLIC_URL.replace(/\/$/, '')}/feeds/${siteId}/${file}${search}`
}

/** A 200 answer of a document type, for the OpenAPI description. */
/** The address of file n of a site's sitemap index (the sitemap and its pages both name them). */
export const sitemapPageUrl = (c: Context<AppEnv>, siteId: string) => (n: number) =>
  publicFeedUrl(c, siteId, `sitemaps/${n}.xml`, false)

export const documentContent = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' as const } } },
})

/**
 * One feed format's route: RSS, Atom and JSON Feed differ only in their file, media type and name.
 * Each format's file still declares its route (`defineRoute(publicRoute, feedRouteConfig(...))`), so the
 * route table names it; this is what the three share.
 */
export const feedRouteConfig = (path: `/feeds/{site_id}/${string}`, type: string, name: string) => ({
  method: 'get' as const,
  path,
  summary: `A site's latest articles as ${name}`,
  description: `A site's latest published articles as ${name} (public when the site's feeds are). Newest first; tag filters by a tag's slug, locale by the articles' locale.${publicDescription}`,
  request: { params: siteParams, query: feedQuery },
  responses: {
    200: documentContent(type, 'The feed'),
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    ...errorResponses(400, 404, 429),
  },
})

/** The handler of a feed format's route: the site's feed in that format, itself named at its own URL. */
export const feedHandler =
  (format: FeedFormat, file: string) =>
  async (
    c: Context<
      AppEnv,
      string,
      { out: { param: { site_id: string }; query: { tag?: string; limit: number; locale?: string } } }
    >,
  ) => {
    const { site_id } = c.req.valid('param')
    const { tag, limit, locale } = c.req.valid('query')
    const deps = c.get('deps')
    return servePublic(c, site_id, (site) =>
      renderFeed(deps, site, format, { limit, tag, locale, selfUrl: publicFeedUrl(c, site_id, file) }),
    )
  }
