import type { TestContext } from 'vitest'

/** True when the test files run on a PostgreSQL server (CI's PostgreSQL suite), not the embedded one. */
export const onPostgres = Boolean(process.env.DATABASE_URL || process.env.SHARED_TEST_DATABASE_URL)

/**
 * For a test of behaviour under real concurrency: races, "exactly once" claims, limits across
 * instances. The embedded database serves one connection at a time, so there such a test would
 * pass without ever meeting a race; it is skipped, with a note saying where it runs: on PostgreSQL
 * (`DATABASE_URL=postgres://… npx vitest run <file>`), as CI's PostgreSQL suite does.
 */
export function needsRealConcurrency(ctx: TestContext): void {
  ctx.skip(
    !onPostgres,
    'PostgreSQL only: the embedded database serializes connections, so no race could happen here (CI runs it with DATABASE_URL)',
  )
}
