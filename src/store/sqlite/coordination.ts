import type { DatabaseSync } from 'node:sqlite';
import { createLocalLocks } from '../local-locks.ts';

// Leases and shared values in the sqlite file. One sqlite file serves one process receiving
// updates: a second process on the same file shares only the watch claims (and these leases),
// not `exclusively`, whose lock lives in this process's memory.

/** node:sqlite answers at once: a CoordinationStore with plain values. */
export type SqliteCoordination = {
  lease(name: string, owner: string, now: number, ttlMs: number): boolean;
  releaseLease(name: string, owner: string): void;
  value(key: string): string | undefined;
  setValue(key: string, value: string, now: number): void;
  exclusively<T>(name: string, task: () => Promise<T>): Promise<T>;
};

export const createSqliteCoordination = (db: DatabaseSync): SqliteCoordination => {
  // Taken when free or ended, renewed by its holder; RETURNING gives a row only when `owner` holds it.
  const upsertLease = db.prepare(`
    INSERT INTO leases (name, owner, until) VALUES (:name, :owner, :until)
    ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
    WHERE leases.owner = excluded.owner OR leases.until <= :now
    RETURNING owner`);
  const deleteLease = db.prepare('DELETE FROM leases WHERE name = ? AND owner = ?');
  const selectValue = db.prepare('SELECT value FROM shared_values WHERE key = ?');
  const upsertValue = db.prepare(`
    INSERT INTO shared_values (key, value, updated_at) VALUES (:key, :value, :now)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);

  return {
    lease: (name, owner, now, ttlMs) => upsertLease.get({ name, owner, until: now + ttlMs, now }) !== undefined,
    releaseLease(name, owner) {
      deleteLease.run(name, owner);
    },
    value(key) {
      const value = selectValue.get(key)?.value;
      return typeof value === 'string' ? value : undefined;
    },
    setValue(key, value, now) {
      upsertValue.run({ key, value, now });
    },
    ...createLocalLocks(),
  };
};
