import { feedHandler, feedRouteConfig } from '@functions/content/feeds.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

/** Public: a feed reader sends no key; the site's public_feeds setting is the consent. */
export const route = defineRoute(
  publicRoute,
  feedRouteConfig('/feeds/{site_id}/feed.json', 'application/feed+json', 'JSON Feed 1.1'),
)

export const registerJsonFeed = (app: App) => app.openapi(route, feedHandler('json', 'feed.json'))
