import type pg from 'pg';
import { checkId } from '../checks.ts';
import type { UsageStore } from '../usage-store.ts';
import { inTransaction } from './pool.ts';

// The counters of /stats, added by every replica. Each batch's rows go in key order, so that two
// replicas adding the same keys at once lock them in the same order and never deadlock.

const byKey = <T>(rows: readonly T[], key: (row: T) => string | number): T[] => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

export const createPostgresUsageStore = (pool: pg.Pool): UsageStore & { add: (...args: Parameters<UsageStore['add']>) => Promise<void> } => ({
  add: (batch) =>
    inTransaction(pool, async (client) => {
      const counts = byKey(batch.counts, (row) => `${row.day}\n${row.name}\n${row.key}`);
      if (counts.length > 0) {
        await client.query(
          `INSERT INTO usage_counts (day, name, key, value)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
           ON CONFLICT (day, name, key) DO UPDATE SET value = usage_counts.value + excluded.value`,
          [counts.map((row) => row.day), counts.map((row) => row.name), counts.map((row) => row.key), counts.map((row) => row.value)],
        );
      }
      const users = byKey(batch.users, (row) => `${row.day}\n${String(row.userId).padStart(20, '0')}`);
      if (users.length > 0) {
        await client.query('INSERT INTO usage_users (day, user_id) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING', [
          users.map((row) => row.day),
          users.map((row) => checkId(row.userId)),
        ]);
      }
      const seen = byKey(batch.seen, (row) => row.id);
      if (seen.length > 0) {
        await client.query(
          `INSERT INTO last_seen (id, at) SELECT * FROM unnest($1::bigint[], $2::bigint[])
           ON CONFLICT (id) DO UPDATE SET at = GREATEST(last_seen.at, excluded.at)`,
          [seen.map((row) => checkId(row.id)), seen.map((row) => row.at)],
        );
      }
    }),
  async counts(fromDay) {
    const { rows } = await pool.query<{ day: string; name: string; key: string; value: number }>(
      'SELECT day, name, key, value FROM usage_counts WHERE day >= $1 ORDER BY day, name, key',
      [fromDay],
    );
    return rows.map((row) => ({ day: row.day, name: row.name, key: row.key, value: Number(row.value) }));
  },
  async activeUsers(fromDay) {
    const { rows } = await pool.query<{ n: number }>('SELECT count(DISTINCT user_id)::bigint AS n FROM usage_users WHERE day >= $1', [fromDay]);
    return Number(rows[0]?.n ?? 0);
  },
  async lastSeen(ids) {
    if (ids.length === 0) return new Map();
    const { rows } = await pool.query<{ id: number; at: number }>('SELECT id, at FROM last_seen WHERE id = ANY($1::bigint[])', [ids.map(checkId)]);
    return new Map(rows.map((row) => [row.id, row.at]));
  },
  async prune(beforeDay) {
    await pool.query('DELETE FROM usage_counts WHERE day < $1', [beforeDay]);
    await pool.query('DELETE FROM usage_users WHERE day < $1', [beforeDay]);
  },
});
