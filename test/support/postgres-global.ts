import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

// vitest's global set-up: one real PostgreSQL server for the whole run; each test file makes
// its own databases on it (test/support/pg-database.ts).

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
