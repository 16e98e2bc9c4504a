import { createRoute, type RouteConfig, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type FunctionDeps, type ServiceContext, serviceContextFor } from '../deps.ts'
import type { AppEnv } from './app-env.ts'
import { authenticate, callerForTenant, type RouteAuth, tenantCaller } from './authenticate.ts'

/** The OpenAPI extension that carries a route's RouteAuth, read by the security matrix and README check. */
export const AUTH_EXTENSION = 'x-auth'
/** The OpenAPI extension that carries what a route meters, read by meteredRoute and the README's route table. */
export const METER_EXTENSION = 'x-meter'

/** A product metered per request by its routes (the Content API); other products are metered by their services. */
export type MeteredProduct = 'content'

/**
 * What one request to a route counts as: a unit of the product, metered by meteredRoute
 * (route-meter.ts) after the request is validated and before the handler runs (malformed requests
 * are not billed). Who is
 * metered is the product's rule (for content: requests made with API keys). `buffered` counts it
 * through the instance's usage buffer, for the hot read path.
 */
export interface RouteMeter {
  product: MeteredProduct
  buffered?: boolean
}

function securityFor(auth: RouteAuth): RouteConfig['security'] {
  const schemes: Record<string, string[]>[] = []
  const bearerKinds = ['user', 'user_without_tenant', 'platform_key', 'published_key']
  if (auth.allow.some((k) => bearerKinds.includes(k))) schemes.push({ bearer: [] })
  if (auth.allow.includes('tool_key')) schemes.push({ toolKey: [] })
  if (auth.allow.includes('service') || auth.allow.includes('anon')) schemes.push({ serviceRole: [] })
  return schemes
}

/**
 * A route definition with its authentication beside it: who may call (caller kinds), the scope a
 * key needs and the roles a user needs, and what a request meters (`meter`, see RouteMeter). The rule is enforced by the route's own middleware and
 * published in the OpenAPI document (security plus `x-auth`), so the security matrix test and the
 * README's scope table read the same declaration the code enforces.
 */
export function defineRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  auth: RouteAuth,
  { meter, ...config }: R & { meter?: MeteredProduct | RouteMeter },
) {
  const isPublic = auth.allow.length === 0
  return createRoute({
    ...(config as unknown as R),
    // Typed as the route declares it (the strict copy has the same parameters).
    ...({ request: { ...config.request, query: strictQuery(config.request?.query) } } as object),
    security: isPublic ? [] : securityFor(auth),
    ...(!isPublic && { middleware: authenticate(auth) }),
    [AUTH_EXTENSION]: {
      allow: [...auth.allow],
      ...(auth.scope && { scope: auth.scope }),
      ...(auth.roles && { roles: [...auth.roles] }),
    },
    ...(meter && { [METER_EXTENSION]: typeof meter === 'string' ? { product: meter } : meter }),
  })
}

/** A route without query parameters takes none: `?anything` is refused like an unknown one. */
const noQuery = z.object({}).strict()

/**
 * Query parameters are checked as strictly as bodies: an unknown one (a typo such as
 * `?month=` for `?period=`) is 400 VALIDATION_ERROR naming it, not silently ignored. A schema
 * that must take parameters it cannot list (an OAuth callback, where providers add their own)
 * says so with `.loose()` and is kept as it is.
 */
function strictQuery<Q>(query: Q): Q {
  if (query === undefined) return noQuery as Q
  if (query instanceof z.ZodObject && query._zod.def.catchall === undefined) return query.strict() as Q
  return query
}

/** The function's dependencies, from the context (the one way handlers reach them). */
export const depsOf = (c: Context<AppEnv>): FunctionDeps => c.get('deps')

/** The service context for this request's tenant caller. */
export const serviceContext = (c: Context<AppEnv>): ServiceContext =>
  serviceContextFor(c.get('deps'), tenantCaller(c))

/**
 * The service context of a server-function call: the caller's own tenant, or for the
 * service-role key the tenant it names (`tenant_id`), acting as that tenant (callerForTenant).
 */
export const serviceContextForTenant = async (
  c: Context<AppEnv>,
  tenantId: string | undefined,
): Promise<ServiceContext> => serviceContextFor(c.get('deps'), await callerForTenant(c, tenantId))
