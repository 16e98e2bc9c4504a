import {
  documentContent,
  publicDescription,
  servePublic,
  sitemapPageUrl,
  siteParams,
} from '@functions/content/feeds.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { renderSitemap, SITEMAP_MAX_URLS } from '@shared/services/content/public-feeds.ts'

/** Public, as the sitemap it belongs to. */
export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/feeds/{site_id}/sitemaps/{page}',
  summary: "One file of a site's sitemap index",
  description:
    "One file of a site's sitemap index (public when the site's feeds are)" +
    '\n\n' +
    `File n holds the published articles ${SITEMAP_MAX_URLS}·(n−1)+1 to ${SITEMAP_MAX_URLS}·n, oldest first.${publicDescription}`,
  request: {
    params: siteParams.extend({
      page: z
        .string()
        .regex(/^[1-9][0-9]{0,5}\.xml$/, 'a file number such as 2.xml')
        .openapi({ param: { name: 'page', in: 'path' }, example: '2.xml' }),
    }),
  },
  responses: {
    200: documentContent('application/xml', 'The sitemap file'),
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    ...errorResponses(400, 404, 429),
  },
})

export const registerSitemapPage = (app: App) =>
  app.openapi(route, async (c) => {
    const { site_id, page } = c.req.valid('param')
    const deps = c.get('deps')
    const n = Number.parseInt(page, 10)
    return servePublic(c, site_id, (site) => renderSitemap(deps, site, n, sitemapPageUrl(c, site_id)))
  })
