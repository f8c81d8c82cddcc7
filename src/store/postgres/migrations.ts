import type pg from 'pg';
import { StoreVersionError } from '../errors.ts';
import { inTransaction } from './pool.ts';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './schema.ts';

// Brings a PostgreSQL database up to the schema of this version, in one transaction under an
// advisory lock: replicas starting at the same moment on an empty database wait for each other
// there, and the second finds the work done. A failing migration leaves nothing behind.

/** pg_advisory_xact_lock's key for migrations: fixed, and shared by every version of the bot. */
const MIGRATION_LOCK = '7235937150521664353';

/** What to do with a database written by a newer version, in PostgreSQL's terms. */
const ELSEWHERE = 'point DATABASE_URL at another database';

/** Applies the migrations the database lacks; returns the resulting version. */
export const migratePostgres = (pool: pg.Pool, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number> =>
  inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    const found = rows[0]?.version ?? 0;
    const known = migrations.length;
    // Thrown inside the transaction: rolled back, so even schema_migrations is not left behind.
    if (found > known) throw new StoreVersionError(found, known, ELSEWHERE);
    for (const [index, migration] of migrations.entries()) {
      const version = index + 1;
      if (version <= found) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, migration.name]);
    }
    return known;
  });

