import { defineConfig } from 'vitest/config'
import { isPostgresWriteRace } from './shared/infra/db.ts'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own database; two workers fit the 2-core machines CI runs on.
    pool: 'forks',
    maxWorkers: 2,
    // The one known postgres.js race a database restart can trip (tests/db-restart.test.ts); the
    // platform survives it (scripts/start.ts). Every other uncaught error still fails the run.
    onUnhandledError: (error) => !isPostgresWriteRace(error),
  },
})
