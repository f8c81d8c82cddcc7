import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One real PostgreSQL server for the run (test/support/postgres.ts).
    globalSetup: ['test/support/postgres-global.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'threads',
    isolate: false,
  },
});
