import type { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField } from '@shared/infra/errors.ts'
import { meterUsage, periodOf } from './metering.ts'
import { type analyticsQuery, type analyticsSchema, MAX_ANALYTICS_DAYS } from './schema.ts'

/** The Analytics API: usage per product and month, and event counts by type, over a period. */

export type Analytics = z.infer<typeof analyticsSchema>
export type AnalyticsInput = z.output<typeof analyticsQuery>

/** Metered as one Analytics API request (after the period is validated). */
export async function getAnalytics(ctx: ServiceContext, query: AnalyticsInput): Promise<Analytics> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const from = query.from ? new Date(query.from) : new Date(`${periodOf(now)}T00:00:00Z`)
  const to = query.to
    ? new Date(query.to)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  if (to <= from) throw invalidField('to', 'must lie after from', 'to must lie after from')
  if (to.getTime() - from.getTime() > MAX_ANALYTICS_DAYS * 86_400_000) {
    throw invalidField(
      'from',
      `at most ${MAX_ANALYTICS_DAYS} days before to`,
      `The period spans at most ${MAX_ANALYTICS_DAYS} days`,
    )
  }
  await meterUsage(ctx, 'analytics')
  const { usage, events } = await ctx.asTenant(async (tx) => {
    // Usage is kept per calendar month: every month that overlaps [from, to).
    const usage = await tx<{ period: string; product_id: string; product: string; units: string }[]>`
      select to_char(u.period, 'YYYY-MM') as period, u.product_id, p.slug as product, u.units::text
      from public.usage_counters u join public.products p on p.id = u.product_id
      where u.tenant_id = ${caller.tenantId}
        and u.period >= ${periodOf(from)}::date and u.period < ${to}
      order by u.period, u.product_id`
    // Raw events, plus the daily counts the retention job rolled older days up into (whole UTC
    // days: a rolled-up day overlapping the period counts whole).
    const events = await tx<{ type: string; count: number }[]>`
      select type, sum(n)::int as count from (
        select type, count(*) as n from public.event_outbox
        where tenant_id = ${caller.tenantId} and created_at >= ${from} and created_at < ${to}
        group by type
        union all
        select type, sum(count) as n from public.event_counts_daily
        where tenant_id = ${caller.tenantId}
          and day >= (${from}::timestamptz at time zone 'UTC')::date and day < ${to}::timestamptz at time zone 'UTC'
        group by type
      ) e group by type order by type`
    return { usage, events }
  })
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    usage: usage.map((u) => ({ ...u, units: Number(u.units) })),
    events,
    total_events: events.reduce((n, e) => n + e.count, 0),
  }
}
