import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The bot built as `npm start` builds it (process tests start dist/main.js), and one real
    // PostgreSQL server for the run (test/support/postgres.ts).
    globalSetup: ['test/support/build-global.ts', 'test/support/postgres-global.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'threads',
    isolate: false,
  },
});
