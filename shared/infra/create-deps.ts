import { loadConfig } from './config.ts'
import { connectDatabase } from './db.ts'
import { type Clock, type FunctionDeps, systemClock } from './deps.ts'
import { createJwtVerifier } from './jwt.ts'
import { createLogger } from './logger.ts'
import { createNotifier } from './notifier.ts'
import { createGuardedFetch, outboundPolicyFrom } from './outbound.ts'
import { Vault } from './vault.ts'

/**
 * Builds a function's dependencies from its environment: Deno.env on Supabase, process.env on
 * the local platform, a test's own map in tests. `overrides` swaps parts (clock, fetch).
 */
export async function createDeps(
  env: Record<string, string | undefined>,
  overrides: Partial<Pick<FunctionDeps, 'clock' | 'fetch' | 'onOutboxCommitted' | 'storageFetch'>> & {
    sql?: FunctionDeps['sql']
  } = {},
): Promise<FunctionDeps> {
  const config = loadConfig(env)
  const sql = overrides.sql ?? connectDatabase(config.DATABASE_URL, config.DATABASE_POOL_MAX)
  const logger = createLogger(config.LOG_LEVEL, { format: config.LOG_FORMAT })
  if (!env.DATABASE_URL && env.SUPABASE_DB_URL) {
    logger.warn(
      'DATABASE_URL is not set: connecting directly (SUPABASE_DB_URL); set the transaction pooler URL (docs/deploy.md)',
    )
  }
  const fetch = overrides.fetch ?? createGuardedFetch(outboundPolicyFrom(config))
  const clock: Clock = overrides.clock ?? systemClock
  return {
    config,
    sql,
    vault: await Vault.create(sql, config.VAULT_MASTER_KEYS),
    clock,
    fetch,
    logger,
    notifier: createNotifier({
      sql,
      clock,
      fetch,
      logger,
      emailApiUrl: config.EMAIL_API_URL,
      emailApiKey: config.EMAIL_API_KEY,
      from: config.EMAIL_FROM,
    }),
    jwt: createJwtVerifier(config),
    onOutboxCommitted: overrides.onOutboxCommitted,
    ...(overrides.storageFetch && { storageFetch: overrides.storageFetch }),
  }
}
