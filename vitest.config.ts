import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The path aliases of tsconfig.json (and, for what deploys, deno.json): @shared/x is shared/x.
const alias = Object.fromEntries(
  ['shared', 'functions', 'scripts', 'local-platform', 'dashboard', 'clients', 'tests', 'benchmarks'].map(
    (dir) => [`@${dir}`, fileURLToPath(new URL(`./${dir}`, import.meta.url))],
  ),
)

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    // A set-up hook that starts a platform: tests/support/platform.ts's SETUP_MS_PER_PLATFORM.
    hookTimeout: 120_000,
    // Each file starts its own database; two workers fit the 2-core machines CI runs on.
    pool: 'forks',
    maxWorkers: 2,
    // The one known postgres.js race a database restart can trip (tests/db-restart.test.ts); the
    // platform survives it (local-platform/start.ts). Every other uncaught error still fails the run.
    // (Matched here as isPostgresWriteRace in shared/infra/db.ts does; importing that module into
    // the config stalls the embedded-database tests.)
    onUnhandledError: (error) =>
      !(
        /reading 'write'|evaluating 'socket\.write'/.test(error.message ?? '') &&
        /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? '')
      ),
  },
})
