import type pg from 'pg';
import { toPostgresUnavailable } from './errors.ts';
import { createLocalLocks } from '../local-locks.ts';
import type { CoordinationStore } from '../store.ts';
import { pause } from '../../backoff.ts';

// What replicas agree on, in the database: leases (the one polling replica), values written once
// and read by all, and locks held while a task runs, as session advisory locks.

export type PostgresCoordination = {
  lease(name: string, owner: string, now: number, ttlMs: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;
  value(key: string): Promise<string | undefined>;
  setValue(key: string, value: string, now: number): Promise<void>;
} & Pick<CoordinationStore, 'exclusively'>;

/** Between two tries for a lock another replica holds. */
const LOCK_RETRY_MS = 100;

/**
 * Holds a session advisory lock on a connection of its own while `task` runs: every replica
 * asking for the same name waits for it, trying every 100 ms (a blocking pg_advisory_lock would
 * meet the statement timeout while the holder talks to Telegram). Should the connection be lost,
 * the server lets the lock go with it, and the connection is not reused; its error while checked
 * out is caught here (node-postgres would otherwise raise it as an uncaught exception).
 */
const holdingAdvisoryLock = async <T>(pool: pg.Pool, database: string, name: string, task: () => Promise<T>): Promise<T> => {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toPostgresUnavailable(error, database);
  }
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    try {
      for (;;) {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [name]);
        if (rows[0]?.locked === true) break;
        if (broken) throw broken;
        await pause(LOCK_RETRY_MS);
      }
    } catch (error) {
      broken ??= error instanceof Error ? error : new Error(String(error));
      throw toPostgresUnavailable(error, database);
    }
    try {
      return await task();
    } finally {
      try {
        if (!broken) await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      } catch (error) {
        // The task's outcome stands; a connection that cannot unlock is closed, which unlocks.
        broken = error instanceof Error ? error : new Error(String(error));
      }
    }
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
};

/** `database` names the store in the errors of `exclusively`, which guards its own SQL only. */
export const createPostgresCoordination = (pool: pg.Pool, database: string): PostgresCoordination => {
  // Tasks of this process under one name queue here first, in memory: a name holds at most one
  // connection of the pool, however many wait for it.
  const local = createLocalLocks();
  return {
    async lease(name, owner, now, ttlMs) {
      // One statement: taken when free or ended, renewed by its holder; a row comes back only
      // when `owner` holds it. Two replicas racing for a free lease: one insert wins, the other
      // meets the row and its WHERE.
      const { rowCount } = await pool.query(
        `INSERT INTO leases (name, owner, until) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE leases.owner = excluded.owner OR leases.until <= $4
         RETURNING owner`,
        [name, owner, now + ttlMs, now],
      );
      return rowCount === 1;
    },
    async releaseLease(name, owner) {
      await pool.query('DELETE FROM leases WHERE name = $1 AND owner = $2', [name, owner]);
    },
    async value(key) {
      const { rows } = await pool.query<{ value: string }>('SELECT value FROM shared_values WHERE key = $1', [key]);
      return rows[0]?.value;
    },
    async setValue(key, value, now) {
      await pool.query(
        `INSERT INTO shared_values (key, value, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [key, value, now],
      );
    },
    exclusively: (name, task) => local.exclusively(name, () => holdingAdvisoryLock(pool, database, name, task)),
  };
};
