import type { DatabaseSync } from 'node:sqlite';
import { keptStatuses, MAX_STATUSES, readStatusRow, type StatusPair, type StatusStore } from '../store.ts';

/** The statuses seen in records, a row per code (the latest text seen beside it). */
export const createSqliteStatusStore = (db: DatabaseSync): StatusStore => {
  const selectAll = db.prepare(`SELECT resource, field, code, text FROM status_names ORDER BY seen_at DESC, code LIMIT ${MAX_STATUSES}`);
  const upsert = db.prepare(`
    INSERT INTO status_names (resource, field, code, text, seen_at) VALUES (:resource, :field, :code, :text, :now)
    ON CONFLICT (resource, field, code) DO UPDATE SET text = excluded.text, seen_at = excluded.seen_at`);
  return {
    all: () => selectAll.all().flatMap((row): StatusPair[] => {
      const pair = readStatusRow(row);
      return pair ? [pair] : [];
    }),
    learn(pairs, now) {
      for (const pair of keptStatuses(pairs)) upsert.run({ ...pair, now });
    },
  };
};
