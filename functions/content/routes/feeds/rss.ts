import { feedHandler, feedRouteConfig } from '@functions/content/feeds.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

/** Public: a feed reader sends no key; the site's public_feeds setting is the consent. */
export const route = defineRoute(
  publicRoute,
  feedRouteConfig('/feeds/{site_id}/rss.xml', 'application/rss+xml', 'RSS 2.0'),
)

export const registerRssFeed = (app: App) => app.openapi(route, feedHandler('rss', 'rss.xml'))
