import type { Queryable } from '@shared/infra/db.ts'

/** The usage log: one record per integration call, and the per-integration statistics. */

export const triggeredByValues = ['assistant', 'automation', 'manual'] as const
export type TriggeredBy = (typeof triggeredByValues)[number]
/** The spec shows 'write'; we add 'read' (tools that only read) and 'discover' (MCP tools/list). */
export type UsageAction = 'read' | 'write' | 'discover'

/**
 * The platform's own tools (platform:list_source_items, platform:generate_draft, ...) are logged
 * under this reserved integration id, with no connection, so every tool call an assistant turn,
 * an automation or a tool-server client makes is in one log. GET /api/integrations/platform/stats
 * reads it like any integration's.
 */
export const PLATFORM_INTEGRATION_ID = '6f1d5c2e-47a0-4b3e-9c21-70a1a7f00c01'
export const PLATFORM_INTEGRATION_SLUG = 'platform'

export interface IntegrationCall {
  tenantId: string
  integrationId: string
  connectionId: string | null
  toolName: string
  action: UsageAction
  triggeredBy: TriggeredBy
  userId: string | null
  success: boolean
  responseTimeMs: number
  at?: Date
}

/**
 * Records one integration call. Pass the caller's transaction where there is one, or the service
 * connection (the tool server and jobs); the tenant is always explicit.
 */
export async function recordIntegrationCall(db: Queryable, call: IntegrationCall): Promise<void> {
  await db`
    insert into public.integration_usage
      (tenant_id, integration_id, connection_id, tool_name, action, triggered_by, user_id, success, response_time_ms, created_at)
    values (${call.tenantId}, ${call.integrationId}, ${call.connectionId}, ${call.toolName.slice(0, 200)}, ${call.action},
            ${call.triggeredBy}, ${call.userId}, ${call.success}, ${Math.max(0, Math.round(call.responseTimeMs))},
            ${call.at ?? new Date()})`
}

export const statsPeriods = {
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
} as const
export type StatsPeriod = keyof typeof statsPeriods

export interface IntegrationStats {
  integration_id: string
  period: StatsPeriod
  from: string
  to: string
  total_calls: number
  success_count: number
  failure_count: number
  success_rate: number
  failure_rate: number
  avg_response_time_ms: number | null
  triggered_by: Record<TriggeredBy, number>
}

/**
 * One aggregate over the (tenant_id, integration_id, created_at) index, which includes the
 * aggregated columns so the scan never touches the table.
 */
export async function integrationStats(
  db: Queryable,
  input: { tenantId: string; integrationId: string; period: StatsPeriod; now: Date },
): Promise<IntegrationStats> {
  const from = new Date(input.now.getTime() - statsPeriods[input.period])
  const [row] = await db<
    {
      total: number
      ok: number
      avg_ms: string | null
      assistant: number
      automation: number
      manual: number
    }[]
  >`
    select count(*)::int as total,
           count(*) filter (where success)::int as ok,
           round(avg(response_time_ms), 1)::text as avg_ms,
           count(*) filter (where triggered_by = 'assistant')::int as assistant,
           count(*) filter (where triggered_by = 'automation')::int as automation,
           count(*) filter (where triggered_by = 'manual')::int as manual
    from public.integration_usage
    where tenant_id = ${input.tenantId} and integration_id = ${input.integrationId}
      and created_at > ${from} and created_at <= ${input.now}`
  const total = row?.total ?? 0
  const ok = row?.ok ?? 0
  const rate = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10000) / 10000)
  return {
    integration_id: input.integrationId,
    period: input.period,
    from: from.toISOString(),
    to: input.now.toISOString(),
    total_calls: total,
    success_count: ok,
    failure_count: total - ok,
    success_rate: rate(ok),
    failure_rate: rate(total - ok),
    avg_response_time_ms: row?.avg_ms == null ? null : Number(row.avg_ms),
    triggered_by: {
      assistant: row?.assistant ?? 0,
      automation: row?.automation ?? 0,
      manual: row?.manual ?? 0,
    },
  }
}
