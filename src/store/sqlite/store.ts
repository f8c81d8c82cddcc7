import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DAMAGED_HINT, StoreOpenError, StoreUnavailableError, toDataDirError, toStoreOpenError, toStoreUnavailable } from '../errors.ts';
import { createIdRecords, ID_RECORDS } from '../id-records.ts';
import { createMemoryLimits, type MemoryLimits } from './limits.ts';
import { migrate } from './migrations.ts';
import { createSqliteCoordination, type SqliteCoordination } from './coordination.ts';
import { createSqliteQueryStore, type SqliteQueryStore } from './queries.ts';
import { cacheSettings } from '../settings-cache.ts';
import { createSqliteSettingsStore } from './settings.ts';
import { createSqliteWatchStore, type SqliteWatchStore } from './watches.ts';
import { createSqliteAutolookupStore } from './autolookup.ts';
import { createSqliteGuestCardStore } from './guest-cards.ts';
import { createSqliteAnswerModeStore } from './answer-modes.ts';
import { createSqliteStatusStore } from './statuses.ts';
import { cacheWatches } from '../watch-cache.ts';
import type { SettingsStore, Store } from '../store.ts';
import { cacheAccess } from '../access-cache.ts';
import type { AccessStore } from '../access-store.ts';
import { createSqliteAccessRows } from './access.ts';
import { createSqliteUsageStore, type SqliteUsageStore } from './usage.ts';

export type SqliteStoreOptions = {
  /** Created when missing; `':memory:'` keeps everything in memory (tests). */
  dataDir: string;
  fileName?: string;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Queries behind buttons unused for this long are forgotten. */
  queryTtlDays?: number;
  /** Tests only: the file may not grow past this many pages, as on a full disk. */
  maxPageCount?: number;
};

const DAY_MS = 86_400_000;
const BUSY_TIMEOUT_MS = 5_000;

/** The same methods, each turning a failure of the disk or the file into a StoreUnavailableError. */
const withStoreErrors = <T extends object>(target: T, path: string): T => {
  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(target)) {
    guarded[name] =
      typeof method === 'function'
        ? (...args: unknown[]): unknown => {
            try {
              return method(...args);
            } catch (error) {
              throw toStoreUnavailable(error, path);
            }
          }
        : method;
  }
  return guarded as T;
};

const openDatabase = (dataDir: string, path: string, inMemory: boolean): DatabaseSync => {
  try {
    if (!inMemory) mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw toDataDirError(error, dataDir);
  }
  try {
    return new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
  } catch (error) {
    throw toStoreOpenError(error, path);
  }
};

/** SQLite's own quick check of every page: a few milliseconds for a store of this size. */
const checkIntegrity = (db: DatabaseSync, path: string): void => {
  const problems = db.prepare('PRAGMA quick_check(3)').all().map((row) => String(row.quick_check));
  if (problems.length === 1 && problems[0] === 'ok') return;
  throw new StoreOpenError(path, `the database is damaged (${problems.join('; ')})`, DAMAGED_HINT);
};

/** A Store whose parts answer at once, as node:sqlite does (tests call them without awaiting). */
export type SqliteStore = Omit<Store, 'queries' | 'watches' | 'coordination' | 'limits' | 'usage' | 'close'> & {
  backend: 'sqlite';
  usage: SqliteUsageStore;
  queries: SqliteQueryStore;
  watches: SqliteWatchStore;
  coordination: SqliteCoordination;
  limits: MemoryLimits;
  close(): void;
};

/**
 * The store in one file. One process receives updates on it: flood limits are kept in this
 * process's memory and `exclusively` locks only within it. Two processes on one file share the
 * watch claims (and leases), as they always did, not the rest.
 */
export const openSqliteStore = ({
  dataDir,
  fileName = 'bot.sqlite',
  now = Date.now,
  queryTtlDays = 180,
  maxPageCount,
}: SqliteStoreOptions): SqliteStore => {
  const inMemory = dataDir === ':memory:';
  const path = inMemory ? ':memory:' : join(dataDir, fileName);
  const db = openDatabase(dataDir, path, inMemory);
  try {
    if (maxPageCount !== undefined) db.exec(`PRAGMA max_page_count = ${Math.trunc(maxPageCount)}`);
    // A damaged file is refused at start, with the file named, rather than failing lookups later.
    checkIntegrity(db, path);
    // First, so that a database from a newer version is refused before anything is written.
    migrate(db);
    // WAL: readers do not block the writer; NORMAL sync is durable enough with WAL (a power
    // cut may lose the last commits, never corrupt the file).
    if (!inMemory) db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    const queries = createSqliteQueryStore(db, { now, ttlMs: queryTtlDays * DAY_MS });
    // One process writes the file's settings and chats' watches (the poller and sender too, through
    // this same store): what it keeps in memory cannot go stale. What it keeps per user and chat id
    // (settings, watch state, flood window) shares one record per id.
    const records = createIdRecords(ID_RECORDS);
    const settings: SettingsStore = cacheSettings(withStoreErrors(createSqliteSettingsStore(db, now), path), { records }).settings;
    const coordination = createSqliteCoordination(db);
    const selectOne = db.prepare('SELECT 1');
    // Allowed ids held in memory, changed by this process's own writes (one process per file).
    const accessRows = withStoreErrors(createSqliteAccessRows(db), path);
    const allowed = cacheAccess(() => accessRows.allowedIds(), { initial: accessRows.allowedIds() });
    const written = (kind: 'user' | 'chat', id: number, allowedNow: boolean, changed: boolean): boolean => {
      if (changed) allowed.apply(kind, id, allowedNow);
      return changed;
    };
    const access: AccessStore = {
      ...accessRows,
      hasUser: allowed.hasUser,
      hasChat: allowed.hasChat,
      allowUser: (grant) => written('user', grant.id, true, accessRows.allowUser(grant)),
      denyUser: (userId) => written('user', userId, false, accessRows.denyUser(userId)),
      allowChat: (grant) => written('chat', grant.id, true, accessRows.allowChat(grant)),
      denyChat: (chatId) => written('chat', chatId, false, accessRows.denyChat(chatId)),
    };
    return {
      backend: 'sqlite',
      queries: withStoreErrors(queries, path),
      settings,
      watches: cacheWatches(withStoreErrors(createSqliteWatchStore(db), path), { records }).watches,
      // The task's own failures are its caller's: only the SQL methods are guarded.
      coordination: { ...withStoreErrors(coordination, path), exclusively: coordination.exclusively },
      limits: createMemoryLimits({ records }),
      autolookup: withStoreErrors(createSqliteAutolookupStore(db), path),
      answerModes: withStoreErrors(createSqliteAnswerModeStore(db), path),
      statuses: withStoreErrors(createSqliteStatusStore(db), path),
      access,
      usage: withStoreErrors(createSqliteUsageStore(db), path),
      guestCards: withStoreErrors(createSqliteGuestCardStore(db), path),
      async ping() {
        try {
          selectOne.get();
        } catch (error) {
          throw new StoreUnavailableError(path, error instanceof Error ? error.message : String(error), { cause: error });
        }
      },
      close() {
        if (db.isOpen) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw toStoreOpenError(error, path);
  }
};
