/**
 * The hot path's budgets, as tests/hot-path-budgets.test.ts checks them on PostgreSQL with
 * pg_stat_statements (docs/performance.md, "Budgets"). Counts, not timings: they hold on a busy
 * machine as on a quiet one.
 */

/**
 * A statement run on most keyed reads may be planned on at most this share of its calls. Each pooled
 * connection plans a plpgsql statement on its first five calls (custom plans) before it settles on
 * the cached generic plan; a statement that never settles is planned on every call (100%).
 */
export const HOT_STATEMENT_MAX_PLANNED_SHARE = 0.1

/**
 * Statements a keyed read sends to the database, averaged over a few hundred reads: the read itself
 * is one; the buffered metering, leases, last uses and request log add a share each.
 */
export const KEYED_READ_STATEMENT_BUDGET = 1.25

/**
 * Rows written per 1,000 keyed reads of keys already in use, besides the request log's own rows
 * (issue 45's budget): lease renewals, last-use and usage flushes.
 */
export const ROWS_WRITTEN_PER_1000_KEYED_READS_BUDGET = 20

/** Rows a key's first use writes, once in its life: its rate-limit bucket and its first last_used_at. */
export const ROWS_WRITTEN_PER_NEW_KEY_BUDGET = 2

/**
 * The tool server's platform:list_content (POST /mcp/tools/execute): today the key's tool subset, a
 * rate-limit lease of its own (tool keys' limits are at most 100 a minute, too few to lease ahead),
 * the claims and the read: four statements. A ceiling on today's figure, to be lowered.
 */
export const TOOL_SERVER_READ_STATEMENT_BUDGET = 4.1
