import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { renderFeed } from '@shared/services/content/public-feeds.ts'
import {
  documentContent,
  feedQuery,
  publicDescription,
  publicFeedUrl,
  servePublic,
  siteParams,
} from './serve.ts'

/** Public: a feed reader sends no key; the site's public_feeds setting is the consent. */
export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/feeds/{site_id}/rss.xml',
  summary: "A site's latest published articles as RSS 2.0 (public when the site's feeds are)",
  description: `Newest first; tag filters by a tag's slug.${publicDescription}`,
  request: { params: siteParams, query: feedQuery },
  responses: {
    200: documentContent('application/rss+xml', 'The feed'),
    304: { description: 'Not modified (If-None-Match or If-Modified-Since)' },
    ...errorResponses(400, 404, 429),
  },
})

export const registerRssFeed = (app: App) =>
  app.openapi(route, async (c) => {
    const { site_id } = c.req.valid('param')
    const { tag, limit } = c.req.valid('query')
    const deps = c.get('deps')
    return servePublic(c, site_id, (site) =>
      renderFeed(deps, site, 'rss', { limit, tag, selfUrl: publicFeedUrl(c, site_id, 'rss.xml') }),
    )
  })
