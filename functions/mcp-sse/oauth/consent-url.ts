import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { Context } from 'hono'
import { mcpUrl } from '../public-url.ts'

/**
 * A page of the dashboard, by its hash route. When the dashboard is served by the deployment
 * itself (DASHBOARD_URL on PUBLIC_URL's origin, as on the local platform), it is on the origin the
 * client used, so a platform on any port sends the browser to its own dashboard.
 */
export function dashboardLink(c: Context<AppEnv>, hash: string): string {
  const { DASHBOARD_URL, PUBLIC_URL } = c.var.deps.config
  const dashboard = new URL(DASHBOARD_URL)
  if (dashboard.origin === new URL(PUBLIC_URL).origin) {
    const own = new URL(mcpUrl(c))
    dashboard.protocol = own.protocol
    dashboard.host = own.host
  }
  dashboard.hash = hash
  return dashboard.toString()
}

/** The dashboard's consent page for an authorization request. */
export const consentUrl = (c: Context<AppEnv>, requestId: string): string =>
  dashboardLink(c, `#/oauth/consent/${requestId}`)
