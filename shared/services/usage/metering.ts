import type { Queryable, TenantRef } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import { noteQuotaCounted } from '@shared/infra/hot-path/log-request.ts'
import { ownerAndAdminEmails } from '@shared/infra/notifier.ts'

/**
 * The spec's API products. The ids are fixed in the migration (20261121040000_tenants_usage.sql)
 * so that every deployment shares them; they are the spec's product_id.
 */
export const productIds = {
  content: '0f3c6a52-6f0e-4c51-9a10-000000000001',
  assistant: '0f3c6a52-6f0e-4c51-9a10-000000000002',
  analytics: '0f3c6a52-6f0e-4c51-9a10-000000000003',
  distribution: '0f3c6a52-6f0e-4c51-9a10-000000000004',
  identity: '0f3c6a52-6f0e-4c51-9a10-000000000005',
} as const
export type Product = keyof typeof productIds

/** What each product counts, for messages (the same words as public.api_products). */
const productUnit: Record<Product, string> = {
  content: 'request',
  assistant: 'token',
  analytics: 'request',
  distribution: 'request',
  identity: 'request',
}

/**
 * The refusal past a Free quota, naming the product, the use and the quota, so the person who
 * meets it knows what ran out and how much there was. `used` is unknown when a statement refused
 * several units at once.
 */
function quotaExceeded(plan: string, product: Product, quota: bigint | null, used: bigint | null, now: Date) {
  const unit = productUnit[product]
  const figures =
    quota === null
      ? ''
      : used === null
        ? ` (the quota is ${quota.toLocaleString('en-US')} ${unit}s a month)`
        : ` (${used.toLocaleString('en-US')} of ${quota.toLocaleString('en-US')} ${unit}s this month)`
  return new ServiceError(
    'QUOTA_EXCEEDED',
    `The ${plan} plan's monthly quota for the ${product} API is used up${figures}`,
    { retryAfter: secondsToNextPeriod(now) },
  )
}

/** Alerts every tenant gets, to its owners and admins (the spec's 80%, 90%, 100%). */
const defaultAlertThresholds = [80, 90, 100] as const

/** First day of the calendar month (UTC) holding `now`, as 'YYYY-MM-01'. */
export function periodOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`
}

/** Whole seconds until the next calendar month (UTC) begins; at least 1. */
export function secondsToNextPeriod(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000))
}

export interface UsageResult {
  /** False when the tenant's plan refuses calls over quota (Free) and this one would pass it. */
  allowed: boolean
  plan: string
  /** The new total for the period; null when refused (nothing was counted). */
  units: bigint | null
  /** Monthly quota; null is unlimited. */
  quota: bigint | null
  /** Thresholds (percent) the tenant set for this product, besides the defaults. */
  alertThresholds: number[]
}

/** What private.record_usage returns (one row, or none when there is no such tenant). */
interface UsageRow {
  plan: string
  quota: string | null
  units: string | null
  alert_thresholds: number[] | null
}

/**
 * The metering statement: counts `units` of `product` for a tenant in the current month, in one
 * statement (private.record_usage): it reads the plan's quota and upserts the counter. The upsert
 * holds the row lock, so concurrent calls on any number of instances add up exactly. On plans
 * that refuse overage (Free) the update only happens while the new total stays within the quota,
 * so exactly the quota is admitted and a refused call is not counted.
 */
function recordUsageQuery(
  db: Queryable,
  tenant: TenantRef,
  product: Product,
  units: number,
  now: Date,
  incurred = false,
) {
  return db<UsageRow[]>`
    select * from private.record_usage(${tenant}, ${productIds[product]}, ${units}, ${periodOf(now)}, ${incurred})`
}

function toUsageResult(row: UsageRow): UsageResult {
  return {
    allowed: row.units !== null,
    plan: row.plan,
    units: row.units === null ? null : BigInt(row.units),
    quota: row.quota === null ? null : BigInt(row.quota),
    alertThresholds: row.alert_thresholds ?? [],
  }
}

export async function recordUsage(
  db: Queryable,
  input: {
    tenantId: string
    product: Product
    units?: number
    now: Date
    /** Units already spent (a provider's token usage): counted even past a Free quota. */
    incurred?: boolean
  },
): Promise<UsageResult> {
  const [row] = await recordUsageQuery(
    db,
    input.tenantId,
    input.product,
    input.units ?? 1,
    input.now,
    input.incurred,
  )
  if (!row) throw new Error(`No tenant ${input.tenantId}`)
  return toUsageResult(row)
}

/**
 * Thresholds whose line this call crossed: the previous total was below t% of the quota and the
 * new one is at or above it. Totals are serialised by the counter's row lock, so exactly one
 * call crosses each line. Integer arithmetic, no rounding.
 */
function crossedThresholds(result: UsageResult, units: number): number[] {
  if (result.units === null || result.quota === null || result.quota <= 0n) return []
  const after = result.units * 100n
  const before = (result.units - BigInt(units)) * 100n
  const all = new Set<number>([...defaultAlertThresholds, ...result.alertThresholds])
  return [...all]
    .filter((t) => before < BigInt(t) * result.quota! && after >= BigInt(t) * result.quota!)
    .sort((a, b) => a - b)
}

/**
 * Meters `units` of `product` for the caller's tenant. Front ends call it after validation
 * (malformed requests are not billed). Throws 429 QUOTA_EXCEEDED, with the seconds to the next
 * month, when the plan refuses the call. Sends usage alerts only on the rare call that crosses a
 * threshold.
 */
export async function meterUsage(
  ctx: ServiceContext,
  product: Product,
  units = 1,
  opts: { incurred?: boolean } = {},
): Promise<void> {
  if (!ctx.config.METERING_ENABLED) return
  const now = ctx.clock.now()
  const result = await recordUsage(ctx.asOwner, {
    tenantId: ctx.caller.tenantId,
    product,
    units,
    now,
    ...opts,
  })
  await settleUsage(ctx, product, units, result, now)
}

/**
 * What follows a metering statement: the refusal when the plan refused the call, and the usage
 * alerts when it crossed a threshold.
 */
async function settleUsage(
  ctx: ServiceContext,
  product: Product,
  units: number,
  usage: UsageResult | UsageRow,
  now: Date,
): Promise<void> {
  const result = 'allowed' in usage ? usage : toUsageResult(usage)
  if (!result.allowed) {
    // On a plan that refuses overage the count never passes the quota, so one refused unit means all are used.
    throw quotaExceeded(result.plan, product, result.quota, units === 1 ? result.quota : null, now)
  }
  noteQuotaCounted(ctx.caller)
  if (crossedThresholds(result, units).length > 0) {
    // Awaited (a few calls per product and month): an edge runtime may stop after the response.
    // The check-usage-alerts job is the backstop should this fail.
    const tenantId = ctx.caller.tenantId
    const owner = { sql: ctx.asOwner, notifier: ctx.notifier }
    await enqueueDueUsageAlerts(owner, { period: periodOf(now), tenantId, product }).catch((err) =>
      ctx.logger.error('usage alert failed', { tenant_id: tenantId, product, error: String(err) }),
    )
  }
}

/**
 * The Content API quota counts requests made with API keys (platform keys, published-only ones
 * included): a signed-in member working in the dashboard is not a Content API request.
 */
export async function meterContentRequest(
  ctx: ServiceContext,
  opts: { buffered?: boolean } = {},
): Promise<void> {
  if (ctx.caller.kind !== 'platform_key' && ctx.caller.kind !== 'published_key') return
  if (opts.buffered) await meterBuffered(ctx, 'content')
  else await meterUsage(ctx, 'content')
}

/**
 * Refuses (429 QUOTA_EXCEEDED) a tenant whose plan refuses overage (Free) and whose count for the
 * month is at or over the quota: for metered work whose size is known only afterwards (a model
 * call's tokens), checked before the work and metered with `incurred` after it.
 */
export async function assertWithinQuota(deps: ServiceContext, product: Product): Promise<void> {
  if (!deps.config.METERING_ENABLED) return
  const now = deps.clock.now()
  // As the caller: the plan, the quotas and the counters are all visible to members under RLS.
  const [row] = await deps.readAsTenant(
    (q) => q<{ plan: string; used: string; quota: string }[]>`
    select t.plan, coalesce(c.units, 0) as used, pq.monthly_quota as quota
    from public.tenants t
    join public.plan_quotas pq on pq.plan = t.plan and pq.product_id = ${productIds[product]}
    left join public.usage_counters c on c.tenant_id = t.id and c.product_id = pq.product_id
      and c.period = ${periodOf(now)}
    where t.id = ${deps.caller.tenantId} and t.plan = 'free' and coalesce(c.units, 0) >= pq.monthly_quota`,
  )
  if (row) throw quotaExceeded(row.plan, product, BigInt(row.quota), BigInt(row.used), now)
}

/**
 * Units counted ahead of metered work whose size is known only afterwards (a model call's tokens),
 * to be settled with settleReservation. `units` is 0 where the plan reserves nothing.
 */
export interface Reservation {
  product: Product
  period: string
  units: number
}

/**
 * Reserves `units` (a model call's input estimate plus its maximum output) before the work: on a
 * plan that refuses overage (Free) they are counted now, within the quota, in one statement under
 * the counter's row lock, so concurrent calls on any number of instances cannot together pass the
 * quota; 429 QUOTA_EXCEEDED when they do not fit. Paid plans reserve nothing. A reservation that is
 * never settled (the instance died) stays counted: it can only under-admit (docs/tenants-and-usage.md).
 */
export async function reserveUsage(
  ctx: ServiceContext,
  product: Product,
  units: number,
): Promise<Reservation> {
  const now = ctx.clock.now()
  const period = periodOf(now)
  if (!ctx.config.METERING_ENABLED) return { product, period, units: 0 }
  const [row] = await ctx.asOwner<{ allowed: boolean; reserved: string; plan: string }[]>`
    select * from private.reserve_call_usage(${ctx.caller.tenantId}, ${productIds[product]}, ${Math.ceil(units)}, ${period})`
  if (!row?.allowed)
    throw new ServiceError(
      'QUOTA_EXCEEDED',
      `The ${row?.plan ?? 'current'} plan's monthly quota for the ${product} API is used up`,
      { retryAfter: secondsToNextPeriod(now) },
    )
  return { product, period, units: Number(row.reserved) }
}

/**
 * Settles a reservation to what the work spent (`units`, counted even past a Free quota: the
 * provider has spent them); the unused part goes back. Sends the usage alerts it crosses.
 */
export async function settleReservation(
  ctx: ServiceContext,
  reservation: Reservation,
  units: number,
): Promise<void> {
  if (!ctx.config.METERING_ENABLED) return
  if (units === 0 && reservation.units === 0) return
  const [row] = await ctx.asOwner<UsageRow[]>`
    select * from private.settle_call_usage(${ctx.caller.tenantId}, ${productIds[reservation.product]},
      ${reservation.units}, ${units}, ${reservation.period})`
  if (row) await settleUsage(ctx, reservation.product, units, row, ctx.clock.now())
}

interface DueAlert {
  tenant_id: string
  tenant_name: string
  product_id: string
  product_name: string
  unit: string
  period: string
  threshold: number
  quota: string
  recipient: string
  dedupe_key: string
}

/**
 * Queues every usage alert that is due and not yet sent for `period`: the default thresholds to
 * the tenant's owners and admins, and the tenant's own alerts to their targets. Each
 * (tenant, product, month, threshold, recipient) is one notification, made once by the
 * notifier's dedupe key, so the metered path and the job can both run on any instance.
 */
export async function enqueueDueUsageAlerts(
  deps: Pick<FunctionDeps, 'sql' | 'notifier'>,
  scope: { period: string; tenantId?: string; product?: Product },
): Promise<number> {
  const sql = deps.sql
  const productId = scope.product ? productIds[scope.product] : null
  const due = await sql<DueAlert[]>`
    with c as (
      select u.tenant_id, t.name as tenant_name, u.product_id, p.name as product_name, p.unit,
             u.period, u.units, q.monthly_quota as quota
      from public.usage_counters u
      join public.tenants t on t.id = u.tenant_id
      join public.products p on p.id = u.product_id
      join public.plan_quotas q on q.plan = t.plan and q.product_id = u.product_id
      where u.period = ${scope.period} and q.monthly_quota > 0
        ${scope.tenantId ? sql`and u.tenant_id = ${scope.tenantId}` : sql``}
        ${productId ? sql`and u.product_id = ${productId}` : sql``}
    ), targets as (
      select c.*, d.threshold, lower(adm.email) as recipient
      from c
      cross join unnest(${sql.array([...defaultAlertThresholds])}::int[]) as d (threshold)
      join ${ownerAndAdminEmails(sql)} adm on adm.tenant_id = c.tenant_id
      union
      select c.*, a.threshold_percent, lower(a.notification_target)
      from c join public.usage_alerts a
        on a.tenant_id = c.tenant_id and a.product_id = c.product_id and a.notification_type = 'email'
    ), keyed as (
      select *, 'usage-alert:' || tenant_id || ':' || product_id || ':' || to_char(period, 'YYYY-MM')
                || ':' || threshold || ':' || recipient as dedupe_key
      from targets
      where units * 100 >= threshold::bigint * quota
    )
    select tenant_id, tenant_name, product_id, product_name, unit, to_char(period, 'YYYY-MM') as period,
           threshold, quota::text, recipient, dedupe_key
    from keyed k
    where not exists (select 1 from public.notifications n where n.dedupe_key = k.dedupe_key)
    order by tenant_id, product_id, threshold, recipient`
  let queued = 0
  for (const a of due) {
    const made = await deps.notifier.enqueue(sql, {
      tenantId: a.tenant_id,
      kind: 'usage.alert',
      recipient: a.recipient,
      subject: `${a.product_name}: ${a.threshold}% of the monthly quota used`,
      body:
        `The tenant "${a.tenant_name}" has used ${a.threshold}% of its ${a.product_name} quota ` +
        `(${a.quota} ${a.unit}s) for ${a.period}.`,
      dedupeKey: a.dedupe_key,
    })
    if (made) queued++
  }
  return queued
}

/**
 * Meters one unit of `product` for the caller's tenant through this instance's usage buffer
 * (shared/infra/hot-path/usage-buffer.ts): on plans without a hard cap the count is written within a
 * second, in a batch; on Free the unit is reserved first, so the quota stays exact. For the hot
 * read path (GET /v1/content). Throws 429 QUOTA_EXCEEDED like meterUsage; usage alerts are queued
 * when a reservation or a flush crosses a threshold.
 */
async function meterBuffered(ctx: ServiceContext, product: Product): Promise<void> {
  if (!ctx.config.METERING_ENABLED) return
  const now = ctx.clock.now()
  const usage = hotPathOf(ctx).usage
  if (!usage.onCounted) {
    const deps = { sql: ctx.asOwner, notifier: ctx.notifier }
    const products = Object.entries(productIds) as [Product, string][]
    usage.onCounted = (tenantId, productId, period, units, added) => {
      const quota = usage.quotaOf(tenantId, productId, period)
      const result = { allowed: true, plan: '', units, quota: quota.quota, alertThresholds: quota.thresholds }
      if (crossedThresholds(result, added).length === 0) return
      const name = products.find(([, id]) => id === productId)?.[0]
      enqueueDueUsageAlerts(deps, { period, tenantId, product: name }).catch((err) =>
        ctx.logger.error('usage alert failed', { tenant_id: tenantId, product: name, error: String(err) }),
      )
    }
  }
  const take = await usage.take(ctx.caller.tenantId, productIds[product], periodOf(now))
  await settleUsage(
    ctx,
    product,
    take.added,
    {
      allowed: take.allowed,
      plan: take.plan,
      units: take.units,
      quota: take.quota,
      alertThresholds: take.alertThresholds,
    },
    now,
  )
}
