import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/store/postgres/pool.ts';
import { migratePostgres } from '../../../src/store/postgres/migrations.ts';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from '../../../src/store/postgres/schema.ts';
import { freshDatabase } from '../../support/pg-database.ts';
import { failure } from '../store-backends.ts';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});
const poolOn = (url: string) => {
  const pool = createPool({ url, size: 2 });
  pools.push(pool);
  return pool;
};
const rows = async (pool: pg.Pool, text: string) => (await pool.query<Record<string, unknown>>(text)).rows;

// Not idempotent: run twice, it would fail, or count 2.
const counted: PostgresMigration = { name: 'counted', sql: 'CREATE TABLE runs (n INTEGER); INSERT INTO runs VALUES (1);' };

describe('PostgreSQL migrations', () => {
  it('run once when several processes migrate an empty database at the same moment', async () => {
    const url = await freshDatabase();
    const migrations = [...POSTGRES_MIGRATIONS, counted];
    const versions = await Promise.all([1, 2, 3, 4, 5, 6].map(() => migratePostgres(poolOn(url), migrations)));
    expect(versions).toEqual(Array(6).fill(POSTGRES_MIGRATIONS.length + 1));
    const pool = poolOn(url);
    expect(await rows(pool, 'SELECT count(*) AS n FROM runs')).toEqual([{ n: 1 }]);
    expect(await rows(pool, 'SELECT version, name FROM schema_migrations ORDER BY version')).toEqual([
      ...POSTGRES_MIGRATIONS.map((migration, index) => ({ version: index + 1, name: migration.name })),
      { version: POSTGRES_MIGRATIONS.length + 1, name: 'counted' },
    ]);
  });

  it('apply only the migrations appended since the last run, keeping the data', async () => {
    const pool = poolOn(await freshDatabase());
    expect(await migratePostgres(pool)).toBe(POSTGRES_MIGRATIONS.length);
    await pool.query("INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0)");
    const note: PostgresMigration = { name: 'chat note', sql: 'ALTER TABLE chat_settings ADD COLUMN note TEXT' };
    expect(await migratePostgres(pool, [...POSTGRES_MIGRATIONS, note])).toBe(POSTGRES_MIGRATIONS.length + 1);
    expect(await rows(pool, 'SELECT chat_id, locale, updated_at, note FROM chat_settings')).toEqual([{ chat_id: -100, locale: 'en', updated_at: 0, note: null }]);
    expect(await migratePostgres(pool, [...POSTGRES_MIGRATIONS, note])).toBe(POSTGRES_MIGRATIONS.length + 1);
  });

  it('roll a failing migration back whole, with the ones applied in the same run', async () => {
    const pool = poolOn(await freshDatabase());
    const broken: PostgresMigration = { name: 'broken', sql: 'CREATE TABLE half_done (id INTEGER); INSERT INTO nowhere VALUES (1);' };
    expect(await failure(() => migratePostgres(pool, [...POSTGRES_MIGRATIONS, broken]))).toMatchObject({ code: '42P01' });
    expect(await rows(pool, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
    expect(await migratePostgres(pool)).toBe(POSTGRES_MIGRATIONS.length);
    expect(await failure(() => migratePostgres(pool, [...POSTGRES_MIGRATIONS, broken]))).toMatchObject({ code: '42P01' });
    expect(await rows(pool, 'SELECT max(version) AS version FROM schema_migrations')).toEqual([{ version: POSTGRES_MIGRATIONS.length }]);
    expect(await rows(pool, "SELECT to_regclass('half_done') AS half")).toEqual([{ half: null }]);
  });
});
