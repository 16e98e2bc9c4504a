import type { RouteConfig, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { FunctionDeps, ServiceContext } from '../deps.ts'
import type { App, AppEnv } from './app-env.ts'
import { serviceContextForTenant } from './define-route.ts'
import { errorResponses, jsonContent } from './openapi.ts'

/**
 * A server function's "run it now" route (scrape-social's, sync-affiliate's): the body names the
 * thing to run and, for the service-role key, the tenant; the job is queued (or the one already
 * queued or running is answered), the function's engine is woken when the job is new, and the
 * answer is 202 with the job. The route file declares the route (defineRoute with its method, path
 * and summary, which the README's table reads) from `request` and `responses`, and registers it
 * with `register(route)`; what differs (the body, the queueing service, the engine) is passed here.
 */
export function jobTrigger<Body extends { tenant_id?: string }, Job extends { id: string }, Accepted>(how: {
  body: z.ZodType<Body>
  accepted: z.ZodType<Accepted>
  queue: (ctx: ServiceContext, body: Body) => Promise<{ job: Job; created: boolean }>
  kick: (deps: FunctionDeps, job: Job) => void
  present: (job: Job) => Accepted
}) {
  return {
    request: { body: { content: { 'application/json': { schema: how.body } }, required: true } },
    responses: {
      202: jsonContent(how.accepted, 'Queued'),
      ...errorResponses(400, 401, 403, 404, 413, 429),
    },
    register: (route: RouteConfig) => (app: App) =>
      app.openapi(route, (async (c: Context<AppEnv>) => {
        const body = (c.req as unknown as { valid: (target: 'json') => Body }).valid('json')
        const ctx = await serviceContextForTenant(c, body.tenant_id)
        const { job, created } = await how.queue(ctx, body)
        if (created) how.kick(c.get('deps'), job)
        return c.json(how.present(job) as object, 202)
      }) as never),
  }
}
