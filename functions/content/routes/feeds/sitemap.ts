import {
  documentContent,
  publicDescription,
  servePublic,
  sitemapPageUrl,
  siteParams,
} from '@functions/content/feeds.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { renderSitemap, SITEMAP_MAX_URLS } from '@shared/services/content/public-feeds.ts'

/** Public: search engines send no key; the site's public_feeds setting is the consent. */
export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/feeds/{site_id}/sitemap.xml',
  summary: "A site's sitemap",
  description:
    "A site's sitemap: its published articles (public when the site's feeds are)" +
    '\n\n' +
    `Up to ${SITEMAP_MAX_URLS} URLs, each with lastmod; past that a sitemap index of /feeds/{site_id}/sitemaps/{n}.xml.${publicDescription}`,
  request: { params: siteParams },
  responses: {
    200: documentContent('application/xml', 'The sitemap, or the sitemap index'),
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    ...errorResponses(400, 404, 429),
  },
})

export const registerSitemap = (app: App) =>
  app.openapi(route, async (c) => {
    const { site_id } = c.req.valid('param')
    const deps = c.get('deps')
    return servePublic(c, site_id, (site) => renderSitemap(deps, site, null, sitemapPageUrl(c, site_id)))
  })
