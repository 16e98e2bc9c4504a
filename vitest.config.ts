import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own database; two workers fit the 2-core machines CI runs on.
    pool: 'forks',
    maxWorkers: 2,
  },
})
