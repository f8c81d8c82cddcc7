import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migrate } from './migrations.ts';
import { createSqliteQueryStore, type SqliteQueryStore } from './sqlite-queries.ts';
import { createSqliteSettingsStore } from './sqlite-settings.ts';
import type { Store } from './store.ts';

export type SqliteStoreOptions = {
  /** Created when missing; `':memory:'` keeps everything in memory (tests). */
  dataDir: string;
  fileName?: string;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Queries behind buttons unused for this long are forgotten. */
  queryTtlDays?: number;
};

const DAY_MS = 86_400_000;
const BUSY_TIMEOUT_MS = 5_000;

export const openSqliteStore = ({
  dataDir,
  fileName = 'bot.sqlite',
  now = Date.now,
  queryTtlDays = 180,
}: SqliteStoreOptions): Omit<Store, 'queries'> & { queries: SqliteQueryStore } => {
  const inMemory = dataDir === ':memory:';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(inMemory ? ':memory:' : join(dataDir, fileName), {
    timeout: BUSY_TIMEOUT_MS,
    enableForeignKeyConstraints: true,
  });
  try {
    // First, so that a database from a newer version is refused before anything is written.
    migrate(db);
    // WAL: readers do not block the writer; NORMAL sync is durable enough with WAL (a power
    // cut may lose the last commits, never corrupt the file).
    if (!inMemory) db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    const queries = createSqliteQueryStore(db, { now, ttlMs: queryTtlDays * DAY_MS });
    const settings = createSqliteSettingsStore(db, now);
    return {
      queries,
      settings,
      close() {
        if (db.isOpen) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
};
