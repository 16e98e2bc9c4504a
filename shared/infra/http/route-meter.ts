import type { RouteConfig, RouteHandler } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { App, AppEnv } from './app-env.ts'
import { METER_EXTENSION, type RouteMeter } from './define-route.ts'

/** Meters one request to a route that declares `meter`: the function's rule (createFunctionApp's `meter`). */
export type MeterRequest = (c: Context<AppEnv>, meter: RouteMeter) => Promise<void>

/**
 * The handler of a route that declares `meter` (defineRoute), metered first. The route file
 * registers it with `meteredRoute(app, route, async (c) => ...)` in place of `app.openapi(...)`, so
 * a reader of the route sees where its requests are counted (not in a replaced app.openapi). It runs after the route's middleware (authentication) and
 * validators, so a malformed request is not billed, and before the handler, so handlers never meter.
 * Who is metered is the function's rule (for content: requests made with API keys), which the frame
 * hands over; with METERING_ENABLED off nothing is metered. tests/checks/route-meter.test.ts holds
 * every route that declares a meter to this wrapper, and the wrapper to a declared meter.
 */
function meteredHandler<H>(route: RouteConfig, handler: H): H {
  const meter = (route as { [METER_EXTENSION]?: RouteMeter })[METER_EXTENSION]
  if (!meter) throw new Error(`${route.method.toUpperCase()} ${route.path} is metered but declares no meter`)
  const run = handler as unknown as (c: Context<AppEnv>) => Promise<Response>
  return (async (c: Context<AppEnv>) => {
    const deps = c.get('deps')
    if (deps.config.METERING_ENABLED) {
      const meterRequest = c.get('meterRequest')
      if (!meterRequest)
        throw new Error(
          `${route.method.toUpperCase()} ${route.path} declares a meter; createFunctionApp has none`,
        )
      await meterRequest(c, meter)
    }
    return run(c)
  }) as unknown as H
}

/** Registers a route that declares `meter`, its handler metered first (meteredHandler). */
export function meteredRoute<R extends RouteConfig>(app: App, route: R, handler: RouteHandler<R, AppEnv>) {
  return app.openapi(route, meteredHandler(route, handler))
}
