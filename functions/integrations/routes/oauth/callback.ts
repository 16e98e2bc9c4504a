import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { bindingCookieName, callbackUrl } from '@shared/services/integrations/oauth.ts'
import { completeAuthorization } from '@shared/services/integrations/oauth-flow.ts'
import { callbackQuery } from '@shared/services/integrations/schema.ts'
import { deleteCookie, getCookie } from 'hono/cookie'

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/callback',
  summary: 'OAuth redirect target',
  description:
    'OAuth redirect target: checks the browser binding cookie, exchanges the code, stores the connection, redirects to the dashboard',
  request: { query: callbackQuery },
  responses: {
    302: { description: 'Redirect to DASHBOARD_URL with status=connected or status=error&error=<code>' },
    ...errorResponses(400, 429),
  },
})

export function registerCallback(app: App) {
  // A public route: each calling address is charged to the unauthenticated rate limit.
  app.use(route.path, limitAnonymous())
  return app.openapi(route, async (c) => {
    const deps = c.var.deps
    const query = c.req.valid('query')
    // The state completes only in the browser that started it (the cookie set at authorize).
    const cookieName = await bindingCookieName(query.state)
    const params = await completeAuthorization(deps, query, getCookie(c, cookieName))
    deleteCookie(c, cookieName, { path: new URL(callbackUrl(deps.config)).pathname })
    const url = new URL(deps.config.DASHBOARD_URL)
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    c.header('Cache-Control', 'no-store')
    return c.redirect(url.toString(), 302)
  })
}
