import type { z } from '@hono/zod-openapi'
import { isPgError, pgErrors } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import { enqueueDueUsageAlerts, type Product, periodOf } from './metering.ts'
import type { alertSchema, createAlertBody } from './schema.ts'

/** The tenant's own usage alerts (list, create, delete) and the job that queues due ones. */

export type Alert = z.infer<typeof alertSchema>
export type CreateAlertInput = z.output<typeof createAlertBody>

interface AlertRow {
  id: string
  product_id: string
  product: string
  threshold_percent: number
  notification_type: 'email'
  notification_target: string
  created_at: Date
}

const presentAlert = (r: AlertRow): Alert => ({
  id: r.id,
  product_id: r.product_id,
  product: r.product,
  threshold_percent: r.threshold_percent,
  notification_type: r.notification_type,
  notification_target: r.notification_target,
  created_at: r.created_at.toISOString(),
})

export async function listAlerts(ctx: ServiceContext): Promise<{ data: Alert[] }> {
  const { caller } = ctx
  const rows = await ctx.asTenant(
    (tx) => tx<AlertRow[]>`
      select a.id, a.product_id, p.slug as product, a.threshold_percent, a.notification_type, a.notification_target, a.created_at
      from public.usage_alerts a join public.products p on p.id = a.product_id
      where a.tenant_id = ${caller.tenantId}
      order by a.created_at, a.id`,
  )
  return { data: rows.map(presentAlert) }
}

export async function createAlert(ctx: ServiceContext, input: CreateAlertInput): Promise<Alert> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const [product] = await tx<
        { slug: Product }[]
      >`select slug from public.products where id = ${input.product_id}`
      if (!product) {
        throw invalidField('product_id', 'not a product id (see GET /api/usage)', 'Unknown product_id')
      }
      const [created] = await tx<AlertRow[]>`
      insert into public.usage_alerts (tenant_id, product_id, threshold_percent, notification_type, notification_target, created_by, created_at)
      values (${caller.tenantId}, ${input.product_id}, ${input.threshold_percent}, ${input.notification_type},
              ${input.notification_target}, ${caller.userId}, ${now})
      returning id, product_id, ${product.slug}::text as product, threshold_percent, notification_type, notification_target, created_at`
      return created!
    })
    .catch((err) => {
      if (isPgError(err, pgErrors.uniqueViolation))
        throw new ServiceError('CONFLICT', 'The same alert already exists')
      throw err
    })
  // A threshold already passed this month notifies now rather than at the next job run.
  await enqueueDueUsageAlerts(
    { sql: ctx.asOwner, notifier: ctx.notifier },
    {
      period: periodOf(now),
      tenantId: caller.tenantId,
      product: row.product as Product,
    },
  )
  return presentAlert(row)
}

export async function deleteAlert(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const deleted = await ctx.asTenant(
    (tx) =>
      tx`delete from public.usage_alerts where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
  )
  if (deleted.length === 0) throw notFound('Usage alert')
}

/** The check-usage-alerts job: queue every alert due this month and not yet sent. */
export async function checkUsageAlerts(deps: FunctionDeps): Promise<{ queued: number }> {
  return { queued: await enqueueDueUsageAlerts(deps, { period: periodOf(deps.clock.now()) }) }
}
