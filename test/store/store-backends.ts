import { pino } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { createPool } from '../../src/store/postgres/pool.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { Store } from '../../src/store/store.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { useTempDirs, withRawDb } from './support.ts';

// The two backends behind the contract suites (settings, queries, coordination, limits): each
// test gets a fresh, empty place (a data directory, a new database), which it may open as a
// store as often as it likes (a restart, a second replica) and look at with plain SQL.

export type StoreOptions = { now?: () => number; queryTtlDays?: number };

export type StorePlace = {
  /** Opens a store on the place; closed after the test. */
  open(options?: StoreOptions): Promise<Store>;
  /** Runs one SQL statement (written for both dialects) on the place directly; its rows. */
  sql(text: string): Promise<Array<Record<string, unknown>>>;
};

export type Backend = { name: 'sqlite' | 'postgres'; place(): Promise<StorePlace> };

export const quietLogger = pino({ level: 'silent' });

/** Closes what the test opened, after it. */
const useClosers = (): ((close: () => unknown) => void) => {
  const closers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return (close) => void closers.push(close);
};

/** sqlite in a new temporary data directory; call at a file's top level or in a describe. */
export const sqliteBackend = (): Backend => {
  const tempDir = useTempDirs();
  const onClose = useClosers();
  return {
    name: 'sqlite',
    place: async () => {
      const dataDir = tempDir();
      return {
        open: async (options = {}) => {
          const store = openSqliteStore({ dataDir, ...options });
          onClose(() => store.close());
          return store;
        },
        sql: async (text) => withRawDb(dataDir, (db) => db.prepare(text).all()),
      };
    },
  };
};

/** PostgreSQL on a new database of the run's real server (test/support/postgres-global.ts). */
export const postgresBackend = (): Backend => {
  const onClose = useClosers();
  return {
    name: 'postgres',
    place: async () => {
      const url = await freshDatabase();
      return {
        open: async (options = {}) => {
          const store = await openPostgresStore({ url, poolSize: 4, logger: quietLogger, ...options });
          onClose(() => store.close());
          return store;
        },
        // BIGINTs read as numbers, as the store reads them.
        sql: async (text) => {
          const pool = createPool({ url, size: 1 });
          try {
            return (await pool.query<Record<string, unknown>>(text)).rows;
          } finally {
            await pool.end();
          }
        },
      };
    },
  };
};

/** A fresh place of `backend` for each test. */
export const usePlace = (backend: Backend): (() => StorePlace) => {
  let place: StorePlace | undefined;
  beforeEach(async () => {
    place = await backend.place();
  });
  afterEach(() => {
    place = undefined;
  });
  return () => {
    if (!place) throw new Error('the place is used outside a test');
    return place;
  };
};

/** What `act` threw or rejected with; a failure when it did neither. */
export const failure = async (act: () => unknown): Promise<unknown> => {
  try {
    await act();
  } catch (error) {
    return error;
  }
  throw new Error('it did not fail');
};
