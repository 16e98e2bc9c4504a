import { createRoute, z } from '@hono/zod-openapi'
import { requireRole } from '../../shared/infra/auth.ts'
import { isPgError, pgErrors, withTenant } from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound, ServiceError } from '../../shared/infra/errors.ts'
import { authenticate, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { serviceContext } from '../../shared/infra/http/define-route.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses, jsonContent } from '../../shared/infra/http/openapi.ts'
import {
  enqueueDueUsageAlerts,
  meterUsage,
  type Product,
  periodOf,
} from '../../shared/services/usage/metering.ts'
import {
  alertSchema,
  analyticsQuery,
  analyticsSchema,
  createAlertBody,
  idParam,
  MAX_ANALYTICS_DAYS,
  usageQuery,
  usageSchema,
} from '../../shared/services/usage/schema.ts'

export const functionName = 'usage'

const security = [{ bearer: [] }]

const usageReader = authenticate({ allow: ['user', 'platform_key'], scope: 'billing:read' })
const dashboardUser = authenticate({ allow: ['user'] })

const routes = {
  usage: createRoute({
    method: 'get',
    path: '/usage',
    summary: 'Usage, quota, percent and overage per product for a month (users, or keys with billing:read)',
    security,
    middleware: [usageReader] as const,
    request: { query: usageQuery },
    responses: { 200: jsonContent(usageSchema, 'Usage'), ...errorResponses(400, 401, 403, 429) },
  }),
  listAlerts: createRoute({
    method: 'get',
    path: '/alerts',
    summary: "The tenant's usage alerts",
    security,
    middleware: [dashboardUser] as const,
    responses: {
      200: jsonContent(z.object({ data: z.array(alertSchema) }), 'Alerts'),
      ...errorResponses(401, 403, 429),
    },
  }),
  createAlert: createRoute({
    method: 'post',
    path: '/alerts',
    summary:
      'Add a usage alert (owners and admins): an e-mail once per month when usage reaches the threshold',
    security,
    middleware: [dashboardUser] as const,
    request: { body: { content: { 'application/json': { schema: createAlertBody } }, required: true } },
    responses: { 201: jsonContent(alertSchema, 'Created'), ...errorResponses(400, 401, 403, 409, 413, 429) },
  }),
  deleteAlert: createRoute({
    method: 'delete',
    path: '/alerts/{id}',
    summary: 'Delete a usage alert (owners and admins)',
    security,
    middleware: [dashboardUser] as const,
    request: { params: idParam },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
  }),
  analytics: createRoute({
    method: 'get',
    path: '/analytics',
    summary:
      'Analytics API: usage per product and month, and event counts by type, over a period (analytics:read)',
    description: 'Metered as one Analytics API request; past the Free quota: 429 QUOTA_EXCEEDED.',
    security,
    middleware: [authenticate({ allow: ['user', 'platform_key'], scope: 'analytics:read' })] as const,
    request: { query: analyticsQuery },
    responses: { 200: jsonContent(analyticsSchema, 'Analytics'), ...errorResponses(400, 401, 403, 429) },
  }),
  checkAlerts: createRoute({
    method: 'post',
    path: '/jobs/check-usage-alerts',
    summary: 'Job: queue usage alerts that are due and not yet sent (service role only)',
    security: [{ serviceRole: [] }],
    responses: { 200: jsonContent(z.object({ queued: z.number() }), 'Count'), ...errorResponses(401) },
  }),
}

interface UsageRow {
  product_id: string
  product: string
  name: string
  unit: 'request' | 'token'
  used: string
  quota: string | null
  percent: string | null
  overage_units: string
  overage_rate: string
  overage_cost: string
  total_overage_cost: string
  plan: 'free' | 'pro' | 'business' | 'enterprise'
}

interface AlertRow {
  id: string
  product_id: string
  product: string
  threshold_percent: number
  notification_type: 'email'
  notification_target: string
  created_at: Date
}

/**
 * A Postgres numeric as a USD amount: exact, trailing zeros trimmed to at least cents
 * ('1.2500000000' -> '1.25', '0.0000100000' -> '0.00001', '3' -> '3.00'). String work only.
 */
export function formatUsd(numeric: string): string {
  const [whole = '0', frac = ''] = numeric.split('.')
  const trimmed = frac.replace(/0+$/, '')
  return `${whole}.${trimmed.padEnd(2, '0')}`
}

const presentAlert = (r: AlertRow) => ({
  id: r.id,
  product_id: r.product_id,
  product: r.product,
  threshold_percent: r.threshold_percent,
  notification_type: r.notification_type,
  notification_target: r.notification_target,
  created_at: r.created_at.toISOString(),
})

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Usage metering, quotas, overage, usage alerts and the Analytics API',
  )

  app.use('/jobs/*', authenticate({ allow: ['service'] }))
  app.openapi(routes.checkAlerts, async (c) =>
    c.json({ queued: await enqueueDueUsageAlerts(deps, { period: periodOf(deps.clock.now()) }) }, 200),
  )

  app.openapi(routes.usage, async (c) => {
    const caller = tenantCaller(c)
    const period = c.req.valid('query').period ?? periodOf(deps.clock.now()).slice(0, 7)
    // All money in numeric: overage = max(used - quota, 0) * rate, billed on paid plans only
    // (Free refuses calls over quota instead).
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<UsageRow[]>`
      with r as (
        select p.id as product_id, p.slug as product, p.name, p.unit, p.overage_rate, t.plan,
               coalesce(u.units, 0) as used, q.monthly_quota as quota,
               case when t.plan = 'free' or q.monthly_quota is null then 0
                    else greatest(coalesce(u.units, 0) - q.monthly_quota, 0) end as overage_units
        from public.tenants t
        cross join public.products p
        left join public.plan_quotas q on q.plan = t.plan and q.product_id = p.id
        left join public.usage_counters u
          on u.tenant_id = t.id and u.product_id = p.id and u.period = ${`${period}-01`}::date
        where t.id = ${caller.tenantId}
      )
      select product_id, product, name, unit, plan, used::text, quota::text,
             case when quota > 0 then round(used * 100.0 / quota, 2)::text end as percent,
             overage_units::text, overage_rate::text,
             (overage_units * overage_rate)::text as overage_cost,
             (sum(overage_units * overage_rate) over ())::text as total_overage_cost
      from r order by product_id`,
    )
    return c.json(
      {
        period,
        plan: rows[0]!.plan,
        currency: 'USD' as const,
        products: rows.map((r) => ({
          product_id: r.product_id,
          product: r.product,
          name: r.name,
          unit: r.unit,
          used: Number(r.used),
          quota: r.quota === null ? null : Number(r.quota),
          percent: r.percent === null ? null : Number(r.percent),
          overage_units: Number(r.overage_units),
          overage_rate: formatUsd(r.overage_rate),
          overage_cost: formatUsd(r.overage_cost),
        })),
        total_overage_cost: formatUsd(rows[0]!.total_overage_cost),
      },
      200,
    )
  })

  app.openapi(routes.listAlerts, async (c) => {
    const caller = tenantCaller(c)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<AlertRow[]>`
      select a.id, a.product_id, p.slug as product, a.threshold_percent, a.notification_type, a.notification_target, a.created_at
      from public.usage_alerts a join public.products p on p.id = a.product_id
      where a.tenant_id = ${caller.tenantId}
      order by a.created_at, a.id`,
    )
    return c.json({ data: rows.map(presentAlert) }, 200)
  })

  app.openapi(routes.createAlert, async (c) => {
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [product] = await tx<
        { slug: Product }[]
      >`select slug from public.products where id = ${input.product_id}`
      if (!product) {
        throw new ServiceError('VALIDATION_ERROR', 'Unknown product_id', {
          details: [{ field: 'product_id', message: 'not a product id (see GET /api/usage)' }],
        })
      }
      const [created] = await tx<AlertRow[]>`
        insert into public.usage_alerts (tenant_id, product_id, threshold_percent, notification_type, notification_target, created_by, created_at)
        values (${caller.tenantId}, ${input.product_id}, ${input.threshold_percent}, ${input.notification_type},
                ${input.notification_target}, ${caller.userId}, ${now})
        returning id, product_id, ${product.slug}::text as product, threshold_percent, notification_type, notification_target, created_at`
      return created!
    }).catch((err) => {
      if (isPgError(err, pgErrors.uniqueViolation))
        throw new ServiceError('CONFLICT', 'The same alert already exists')
      throw err
    })
    // A threshold already passed this month notifies now rather than at the next job run.
    await enqueueDueUsageAlerts(deps, {
      period: periodOf(now),
      tenantId: caller.tenantId,
      product: row.product as Product,
    })
    return c.json(presentAlert(row), 201)
  })

  app.openapi(routes.deleteAlert, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const deleted = await withTenant(
      deps.sql,
      caller.claims,
      (tx) =>
        tx`delete from public.usage_alerts where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    )
    if (deleted.length === 0) throw notFound('Usage alert')
    return c.body(null, 204)
  })

  app.openapi(routes.analytics, async (c) => {
    const query = c.req.valid('query')
    const caller = tenantCaller(c)
    const now = deps.clock.now()
    const from = query.from ? new Date(query.from) : new Date(`${periodOf(now)}T00:00:00Z`)
    const to = query.to
      ? new Date(query.to)
      : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
    if (to <= from) {
      throw new ServiceError('VALIDATION_ERROR', 'to must lie after from', {
        details: [{ field: 'to', message: 'must lie after from' }],
      })
    }
    if (to.getTime() - from.getTime() > MAX_ANALYTICS_DAYS * 86_400_000) {
      throw new ServiceError('VALIDATION_ERROR', `The period spans at most ${MAX_ANALYTICS_DAYS} days`, {
        details: [{ field: 'from', message: `at most ${MAX_ANALYTICS_DAYS} days before to` }],
      })
    }
    await meterUsage(serviceContext(c), 'analytics')
    const { usage, events } = await withTenant(deps.sql, caller.claims, async (tx) => {
      // Usage is kept per calendar month: every month that overlaps [from, to).
      const usage = await tx<{ period: string; product_id: string; product: string; units: string }[]>`
        select to_char(u.period, 'YYYY-MM') as period, u.product_id, p.slug as product, u.units::text
        from public.usage_counters u join public.products p on p.id = u.product_id
        where u.tenant_id = ${caller.tenantId}
          and u.period >= ${periodOf(from)}::date and u.period < ${to}
        order by u.period, u.product_id`
      const events = await tx<{ type: string; count: number }[]>`
        select type, count(*)::int as count from public.event_outbox
        where tenant_id = ${caller.tenantId} and created_at >= ${from} and created_at < ${to}
        group by type order by type`
      return { usage, events }
    })
    return c.json(
      {
        from: from.toISOString(),
        to: to.toISOString(),
        usage: usage.map((u) => ({ ...u, units: Number(u.units) })),
        events,
        total_events: events.reduce((n, e) => n + e.count, 0),
      },
      200,
    )
  })

  return app
}
