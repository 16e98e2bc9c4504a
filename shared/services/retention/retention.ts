import type { FunctionDeps } from '../../infra/deps.ts'

/** What one prune-retention run removed (rows rolled up into aggregates count as removed). */
export interface RetentionResult {
  webhook_deliveries: number
  webhook_attempts: number
  outbox_events: number
  tool_usage: number
}

/**
 * Prunes finished webhook deliveries, outbox events and tool usage records past their retention
 * periods (config RETENTION_*), rolling events and tool usage up into daily aggregates first.
 * One SQL function (private.prune_retention), one transaction. Rate-limit rows are pruned by the
 * prune-rate-limits job.
 */
export async function pruneRetention(
  deps: Pick<FunctionDeps, 'sql' | 'clock' | 'config'>,
): Promise<RetentionResult> {
  const { config } = deps
  const [row] = await deps.sql<{ result: RetentionResult }[]>`
    select private.prune_retention(${deps.clock.now()}, ${config.RETENTION_WEBHOOK_DELIVERY_DAYS},
      ${config.RETENTION_OUTBOX_DAYS}, ${config.RETENTION_TOOL_USAGE_DAYS}) as result`
  return row!.result
}
