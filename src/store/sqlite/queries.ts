import type { DatabaseSync } from 'node:sqlite';
import { queryKey, storedQuery } from '../query-store.ts';
import type { Query } from '../../query.ts';

// Queries behind inline buttons, kept until unused for the TTL. Keys are content-addressed, so
// the same query is one row however often it is looked up.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** node:sqlite answers at once: a QueryStore (it is assignable to one) with plain values. */
export type SqliteQueryStore = { save(query: Query): string; load(key: string): Query | undefined };

export type SqliteQueryStoreOptions = { now: () => number; ttlMs: number };

/** Prunes stale entries when created, then at most once a day while saving. */
export const createSqliteQueryStore = (db: DatabaseSync, { now, ttlMs }: SqliteQueryStoreOptions): SqliteQueryStore => {
  if (!(ttlMs > 0)) throw new RangeError('the query TTL must be positive');
  // A query looked up again is written at most once an hour, as a load touches it: every lookup
  // saves its query, and a write each time made the WAL checkpoint, with its disk sync, stall the
  // bot. A missing row is inserted, and one that does not match its key (corrupted, or a hash
  // collision) replaced with the saved query, at once; otherwise the statement changes nothing.
  const upsert = db.prepare(`
    INSERT INTO queries (key, resource, filter, value, created_at, last_used_at)
    VALUES (:key, :resource, :filter, :value, :now, :now)
    ON CONFLICT (key) DO UPDATE SET
      resource = excluded.resource, filter = excluded.filter, value = excluded.value,
      last_used_at = excluded.last_used_at
    WHERE queries.last_used_at <= :stale
      OR queries.resource IS NOT excluded.resource
      OR queries.filter IS NOT excluded.filter
      OR queries.value IS NOT excluded.value`);
  const select = db.prepare('SELECT resource, filter, value, last_used_at FROM queries WHERE key = ?');
  const touch = db.prepare('UPDATE queries SET last_used_at = :now WHERE key = :key AND last_used_at <= :stale');
  const deleteUnused = db.prepare('DELETE FROM queries WHERE last_used_at < ?');

  let prunedAt = now();
  deleteUnused.run(prunedAt - ttlMs);

  return {
    save(query) {
      const time = now();
      if (time - prunedAt >= DAY_MS) {
        deleteUnused.run(time - ttlMs);
        prunedAt = time;
      }
      const key = queryKey(query);
      upsert.run({ key, resource: query.resource, filter: query.filter, value: query.value, now: time, stale: time - HOUR_MS });
      return key;
    },
    load(key) {
      const row = select.get(key);
      const parsed = storedQuery.safeParse(row);
      if (!row || !parsed.success || queryKey(parsed.data) !== key) return undefined;
      // Writes are throttled to one an hour per key: plenty for a TTL counted in days.
      const time = now();
      if (typeof row.last_used_at === 'number' && row.last_used_at <= time - HOUR_MS) {
        touch.run({ key, now: time, stale: time - HOUR_MS });
      }
      return parsed.data;
    },
  };
};
