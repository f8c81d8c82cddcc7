import type pg from 'pg';
import { queryKey } from '../query-store.ts';
import { storedQuery } from '../query-store.ts';
import type { Query } from '../../query.ts';

// Queries behind inline buttons, shared by the replicas (a button made by one works on another),
// with the sqlite store's rules: content-addressed keys, forgotten when unused for the TTL,
// pruned at most once a day, and a row touched at most once an hour.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type PostgresQueryStore = { save(query: Query): Promise<string>; load(key: string): Promise<Query | undefined> };

export type PostgresQueryStoreOptions = { now: () => number; ttlMs: number };

/** Prunes stale entries when created, then at most once a day while saving. */
export const createPostgresQueryStore = async (pool: pg.Pool, { now, ttlMs }: PostgresQueryStoreOptions): Promise<PostgresQueryStore> => {
  if (!(ttlMs > 0)) throw new RangeError('the query TTL must be positive');
  const prune = (time: number) => pool.query('DELETE FROM queries WHERE last_used_at < $1', [time - ttlMs]);
  let prunedAt = now();
  await prune(prunedAt);

  return {
    async save(query) {
      const time = now();
      if (time - prunedAt >= DAY_MS) {
        prunedAt = time;
        await prune(time);
      }
      const key = queryKey(query);
      // As in sqlite: a missing row is inserted, and one that does not match its key replaced,
      // at once; a fresh one is left alone, so a repeated lookup writes nothing.
      await pool.query(
        `INSERT INTO queries (key, resource, filter, value, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (key) DO UPDATE SET
           resource = excluded.resource, filter = excluded.filter, value = excluded.value,
           last_used_at = excluded.last_used_at
         WHERE queries.last_used_at <= $6
           OR queries.resource IS DISTINCT FROM excluded.resource
           OR queries.filter IS DISTINCT FROM excluded.filter
           OR queries.value IS DISTINCT FROM excluded.value`,
        [key, query.resource, query.filter, query.value, time, time - HOUR_MS],
      );
      return key;
    },
    async load(key) {
      const { rows } = await pool.query<{ resource: unknown; filter: unknown; value: unknown; last_used_at: unknown }>(
        'SELECT resource, filter, value, last_used_at FROM queries WHERE key = $1',
        [key],
      );
      const row = rows[0];
      const parsed = storedQuery.safeParse(row);
      if (!row || !parsed.success || queryKey(parsed.data) !== key) return undefined;
      const time = now();
      if (typeof row.last_used_at === 'number' && row.last_used_at <= time - HOUR_MS) {
        await pool.query('UPDATE queries SET last_used_at = $1 WHERE key = $2 AND last_used_at <= $3', [time, key, time - HOUR_MS]);
      }
      return parsed.data;
    },
  };
};
