import pg from 'pg';
import { expect, it } from 'vitest';
import { freshDatabase } from './pg-database.ts';

it('the test run has a real PostgreSQL server, and each database made on it is empty', async () => {
  const client = new pg.Client({ connectionString: await freshDatabase() });
  await client.connect();
  const { rows } = await client.query<{ version: string; tables: string }>(
    "SELECT version(), (SELECT count(*) FROM pg_tables WHERE schemaname = 'public') AS tables",
  );
  await client.end();
  expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
  expect(rows[0]?.tables).toBe('0');
});
