import type { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { periodOf } from './metering.ts'
import type { dailyUsageSchema, usageSchema } from './schema.ts'

/** The usage report: usage, quota, percent and overage per product for one month. */

export type Usage = z.infer<typeof usageSchema>
export type DailyUsage = z.infer<typeof dailyUsageSchema>

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

/**
 * A Postgres numeric as a USD amount: exact, trailing zeros trimmed to at least cents
 * ('1.2500000000' -> '1.25', '0.0000100000' -> '0.00001', '3' -> '3.00'). String work only.
 */
export function formatUsd(numeric: string): string {
  const [whole = '0', frac = ''] = numeric.split('.')
  const trimmed = frac.replace(/0+$/, '')
  return `${whole}.${trimmed.padEnd(2, '0')}`
}

/** `period` is a month as YYYY-MM; default the current one. */
export async function getUsage(ctx: ServiceContext, period?: string): Promise<Usage> {
  const { caller } = ctx
  const month = period ?? periodOf(ctx.clock.now()).slice(0, 7)
  // All money in numeric: overage = max(used - quota, 0) * rate, billed on paid plans only
  // (Free refuses calls over quota instead).
  const rows = await ctx.asTenant(
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
          on u.tenant_id = t.id and u.product_id = p.id and u.period = ${`${month}-01`}::date
        where t.id = ${caller.tenantId}
      )
      select product_id, product, name, unit, plan, used::text, quota::text,
             case when quota > 0 then round(used * 100.0 / quota, 2)::text end as percent,
             overage_units::text, overage_rate::text,
             (overage_units * overage_rate)::text as overage_cost,
             (sum(overage_units * overage_rate) over ())::text as total_overage_cost
      from r order by product_id`,
  )
  return {
    period: month,
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
  }
}

/** Each product's units per day of one month (YYYY-MM; default the current one), with its quota. */
export async function getDailyUsage(ctx: ServiceContext, period?: string): Promise<DailyUsage> {
  const { caller } = ctx
  const month = period ?? periodOf(ctx.clock.now()).slice(0, 7)
  const [year, mon] = month.split('-').map(Number) as [number, number]
  const dayCount = new Date(Date.UTC(year, mon, 0)).getUTCDate()
  const days = Array.from({ length: dayCount }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)
  const { products, used } = await ctx.asTenant(async (tx) => {
    const products = await tx<
      {
        product_id: string
        product: string
        name: string
        unit: 'request' | 'token'
        quota: string | null
        plan: Usage['plan']
      }[]
    >`
      select p.id as product_id, p.slug as product, p.name, p.unit, q.monthly_quota::text as quota, t.plan
      from public.tenants t cross join public.products p
      left join public.plan_quotas q on q.plan = t.plan and q.product_id = p.id
      where t.id = ${caller.tenantId} order by p.id`
    const used = await tx<{ product_id: string; day: string; units: string }[]>`
      select c.product_id, to_char(c.period + (d.n - 1)::integer, 'YYYY-MM-DD') as day, d.units::text
      from public.usage_counters c
      cross join lateral unnest(c.daily_units) with ordinality as d(units, n)
      where c.tenant_id = ${caller.tenantId} and c.period = ${days[0]!}::date and d.n <= ${dayCount} and d.units > 0`
    return { products, used }
  })
  const index = new Map(days.map((d, i) => [d, i]))
  return {
    period: month,
    plan: products[0]!.plan,
    days,
    products: products.map((p) => {
      const daily = new Array<number>(dayCount).fill(0)
      for (const u of used) if (u.product_id === p.product_id) daily[index.get(u.day)!] = Number(u.units)
      return {
        product_id: p.product_id,
        product: p.product,
        name: p.name,
        unit: p.unit,
        quota: p.quota === null ? null : Number(p.quota),
        daily,
      }
    }),
  }
}
