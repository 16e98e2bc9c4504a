import type { FunctionDeps } from '@shared/infra/deps.ts'
import { pruneRateLimitBuckets } from '@shared/infra/rate-limit.ts'

/** What one prune-retention run removed (rows rolled up into aggregates count as removed). */
export interface RetentionResult {
  webhook_deliveries: number
  webhook_attempts: number
  outbox_events: number
  tool_usage: number
  commerce_deliveries: number
  jobs: number
  request_log: number
  mcp_tasks: number
}

/**
 * Prunes finished webhook deliveries, outbox events, tool usage records, finished commerce
 * deliveries, finished background jobs and request log rows past their retention periods
 * (config RETENTION_*, REQUEST_LOG_RETENTION_DAYS) and MCP tasks past their ttl (private.prune_mcp_tasks),
 * rolling events and tool usage up into daily aggregates first. One statement (so one
 * transaction) over private.prune_retention, private.prune_finished_work and
 * private.prune_request_log. Rate-limit rows are
 * pruned by the prune-rate-limits job.
 */
export async function pruneRetention(
  deps: Pick<FunctionDeps, 'sql' | 'clock' | 'config'>,
): Promise<RetentionResult> {
  const { config } = deps
  const now = deps.clock.now()
  const [row] = await deps.sql<{ result: RetentionResult }[]>`
    select private.prune_retention(${now}, ${config.RETENTION_WEBHOOK_DELIVERY_DAYS},
             ${config.RETENTION_OUTBOX_DAYS}, ${config.RETENTION_TOOL_USAGE_DAYS})
        || private.prune_finished_work(${now}, ${config.RETENTION_COMMERCE_DELIVERY_DAYS},
             ${config.RETENTION_JOB_DAYS})
        || private.prune_request_log(${now}, ${config.REQUEST_LOG_RETENTION_DAYS})
        || private.prune_mcp_tasks(${now}) as result`
  return row!.result
}

/**
 * The prune-rate-limits job: deletes finished rate-limit windows (and the auth-change feed's old
 * rows) of every tenant; returns how many windows went.
 */
export async function pruneRateLimits(deps: Pick<FunctionDeps, 'sql' | 'clock'>): Promise<number> {
  return pruneRateLimitBuckets(deps.sql, deps.clock.now())
}
