import type { DatabaseSync } from 'node:sqlite';
import { checkId } from '../checks.ts';
import type { UsageBatch, UsageCount, UsageStore } from '../usage-store.ts';
import { immediately } from './transaction.ts';

export type SqliteUsageStore = UsageStore & {
  add(batch: UsageBatch): void;
  counts(fromDay: string): UsageCount[];
  activeUsers(fromDay: string): number;
  lastSeen(ids: readonly number[]): Map<number, number>;
  prune(beforeDay: string): void;
};

export const createSqliteUsageStore = (db: DatabaseSync): SqliteUsageStore => {
  const addCount = db.prepare(`
    INSERT INTO usage_counts (day, name, key, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (day, name, key) DO UPDATE SET value = value + excluded.value`);
  const addUser = db.prepare('INSERT INTO usage_users (day, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const addSeen = db.prepare('INSERT INTO last_seen (id, at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET at = max(at, excluded.at)');
  const selectCounts = db.prepare('SELECT day, name, key, value FROM usage_counts WHERE day >= ? ORDER BY day, name, key');
  const countUsers = db.prepare('SELECT count(DISTINCT user_id) AS n FROM usage_users WHERE day >= ?');
  const selectSeen = db.prepare('SELECT at FROM last_seen WHERE id = ?');
  const pruneCounts = db.prepare('DELETE FROM usage_counts WHERE day < ?');
  const pruneUsers = db.prepare('DELETE FROM usage_users WHERE day < ?');

  return {
    add: (batch) =>
      immediately(db, () => {
        for (const { day, name, key, value } of batch.counts) addCount.run(day, name, key, value);
        for (const { day, userId } of batch.users) addUser.run(day, checkId(userId));
        for (const { id, at } of batch.seen) addSeen.run(checkId(id), at);
      }),
    counts: (fromDay) =>
      selectCounts.all(fromDay).map((row) => ({ day: String(row.day), name: String(row.name), key: String(row.key), value: Number(row.value) })),
    activeUsers: (fromDay) => Number(countUsers.get(fromDay)?.n ?? 0),
    lastSeen: (ids) => {
      const seen = new Map<number, number>();
      for (const id of ids) {
        const at = selectSeen.get(checkId(id))?.at;
        if (at !== undefined && at !== null) seen.set(id, Number(at));
      }
      return seen;
    },
    prune: (beforeDay) =>
      immediately(db, () => {
        pruneCounts.run(beforeDay);
        pruneUsers.run(beforeDay);
      }),
  };
};
