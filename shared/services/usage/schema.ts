import { z } from '@hono/zod-openapi'
import { isoMonth, isoTimestamp } from '@shared/infra/schemas.ts'

const notificationTypes = ['email'] as const

export const usageQuery = z.object({
  period: isoMonth()
    .optional()
    .openapi({ description: 'Month (UTC) as YYYY-MM; default the current one', example: '2026-11' }),
})

const productUsageSchema = z
  .object({
    product_id: z.uuid(),
    product: z.string().openapi({ example: 'content' }),
    name: z.string().openapi({ example: 'Content API' }),
    unit: z.enum(['request', 'token']),
    used: z.number().int(),
    quota: z.number().int().nullable().openapi({ description: 'null: unlimited' }),
    percent: z
      .number()
      .nullable()
      .openapi({ description: 'used / quota in percent, 2 decimals; null when unlimited' }),
    overage_units: z.number().int().openapi({ description: 'Billed units over quota (paid plans only)' }),
    overage_rate: z
      .string()
      .openapi({ description: 'USD per unit over quota, exact decimal', example: '0.05' }),
    overage_cost: z.string().openapi({ description: 'USD, exact decimal', example: '1.25' }),
  })
  .openapi('ProductUsage')

export const usageSchema = z
  .object({
    period: z.string().openapi({ example: '2026-11' }),
    plan: z.enum(['free', 'pro', 'business', 'enterprise']),
    currency: z.literal('USD'),
    products: z.array(productUsageSchema),
    total_overage_cost: z.string().openapi({ description: 'USD, exact decimal', example: '1.25' }),
  })
  .openapi('Usage')

export const dailyUsageSchema = z
  .object({
    period: z.string().openapi({ example: '2026-11' }),
    plan: z.enum(['free', 'pro', 'business', 'enterprise']),
    days: z.array(z.string()).openapi({ description: 'Every day of the month (UTC), YYYY-MM-DD' }),
    products: z.array(
      z.object({
        product_id: z.uuid(),
        product: z.string().openapi({ example: 'content' }),
        name: z.string().openapi({ example: 'Content API' }),
        unit: z.enum(['request', 'token']),
        quota: z.number().int().nullable().openapi({ description: 'Monthly quota; null: unlimited' }),
        daily: z.array(z.number().int()).openapi({
          description: 'Units used on each day of `days`, in the same order',
          example: [3, 0, 12],
        }),
      }),
    ),
  })
  .openapi('DailyUsage')

export const createAlertBody = z
  .object({
    product_id: z.uuid().openapi({ description: 'A product id from GET /api/usage' }),
    threshold_percent: z.number().int().min(1).max(100).openapi({ example: 75 }),
    notification_type: z.enum(notificationTypes).openapi({ description: "'email' (the one supported type)" }),
    notification_target: z.email().max(254).toLowerCase().openapi({ example: 'ops@example.com' }),
  })
  .strict()
  .openapi('CreateUsageAlert', {
    example: {
      product_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f',
      threshold_percent: 80,
      notification_type: 'email',
      notification_target: 'ops@example.com',
    },
  })

export const alertSchema = z
  .object({
    id: z.uuid(),
    product_id: z.uuid(),
    product: z.string(),
    threshold_percent: z.number().int(),
    notification_type: z.enum(notificationTypes),
    notification_target: z.string(),
    created_at: z.string(),
  })
  .openapi('UsageAlert')

/** Longest window one analytics request may cover. */
export const MAX_ANALYTICS_DAYS = 366

export const analyticsQuery = z.object({
  from: isoTimestamp()
    .optional()
    .openapi({ description: 'Start (inclusive); default the start of this month' }),
  to: isoTimestamp().optional().openapi({ description: 'End (exclusive); default the start of next month' }),
})

export const analyticsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    usage: z.array(
      z.object({
        period: z.string().openapi({ description: 'Month (YYYY-MM); usage is counted per calendar month' }),
        product_id: z.uuid(),
        product: z.string(),
        units: z.number().int(),
      }),
    ),
    events: z.array(z.object({ type: z.string(), count: z.number().int() })),
    total_events: z.number().int(),
  })
  .openapi('Analytics')
