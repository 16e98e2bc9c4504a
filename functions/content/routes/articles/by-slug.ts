import { cached, formatsQuery, localeQuery, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { getArticleBySlug } from '@shared/services/content/localized-reads.ts'
import { articleSchema, slugField } from '@shared/services/content/schema.ts'
import { seoSchema, withStructuredData } from '@shared/services/content/structured-data.ts'

const params = z.object({
  site_id: z.uuid().openapi({ param: { name: 'site_id', in: 'path' } }),
  slug: slugField().openapi({ param: { name: 'slug', in: 'path' }, example: 'spring-deals' }),
})

/** include=seo: the canonical and alternate URLs and the JSON-LD object, built from the site's settings. */
const includeQuery = z.enum(['seo']).optional().openapi({
  description:
    "seo adds the field seo: canonical_url, alternates (the article on the site, the site's public feeds) and json_ld, a schema.org Article for the page's <head>",
})

const articleWithSeoSchema = articleSchema
  .extend({ seo: seoSchema.optional().openapi({ description: 'With include=seo' }) })
  .openapi('ArticleBySlug')

const movedSchema = z
  .object({
    redirect_to: z.string().openapi({ description: 'The slug the article has now' }),
    article_id: z.uuid(),
  })
  .openapi('ArticleMoved')

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/sites/{site_id}/articles/{slug}',
  meter: { product: 'content', buffered: true },
  summary: 'One article by its slug in a site',
  description:
    'One article by its slug in a site (content:read); an old slug of a published article answers 301 to its new one' +
    '\n\n' +
    `${metered}${cached} A published-only key sees published articles only: anything else is 404.`,
  request: { params, query: z.object({ formats: formatsQuery, include: includeQuery, locale: localeQuery }) },
  responses: {
    200: jsonContent(articleWithSeoSchema, 'The article'),
    301: jsonContent(movedSchema, "The slug was this published article's: Location gives its address now"),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetArticleBySlug = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const ctx = serviceContext(c)
    const { site_id, slug } = c.req.valid('param')
    const { formats, include, locale } = c.req.valid('query')
    return answerRead(c, async () => {
      const found = await getArticleBySlug(ctx, site_id, slug, formats, locale ?? null)
      if (!('redirect_to' in found))
        return include === 'seo'
          ? withStructuredData(ctx, found.article, c.get('deps').config.PUBLIC_URL)
          : found.article
      const url = new URL(c.req.url)
      url.pathname = url.pathname.replace(/[^/]+$/, found.redirect_to)
      c.header('Location', `${url.pathname}${url.search}`)
      return c.json(found, 301)
    })
  })
