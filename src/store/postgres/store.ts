import type { Logger } from 'pino';
import { backoffDelay, pause, type Backoff } from '../../backoff.ts';
import { StoreOpenError, StoreUnavailableError } from '../errors.ts';
import { createIdRecords, ID_RECORDS } from '../id-records.ts';
import { StoreVersionError } from '../errors.ts';
import { createPostgresCoordination } from './coordination.ts';
import { failureReason, finalOpenError, isConnectionFailure, withPostgresErrors } from './errors.ts';
import { createPostgresLimits } from './limits.ts';
import { migratePostgres } from './migrations.ts';
import { createPool, describeDatabase } from './pool.ts';
import { createPostgresQueryStore } from './queries.ts';
import { createPostgresSettingsStore } from './settings.ts';
import { listenForSettings } from './settings-listener.ts';
import { cacheSettings } from '../settings-cache.ts';
import { createPostgresWatchStore } from './watches.ts';
import { createPostgresAutolookupStore } from './autolookup.ts';
import { createPostgresGuestCardStore } from './guest-cards.ts';
import { createPostgresAnswerModeStore } from './answer-modes.ts';
import { createPostgresStatusStore } from './statuses.ts';
import { cacheWatches } from '../watch-cache.ts';
import type { Store } from '../store.ts';
import { cacheAccess } from '../access-cache.ts';
import type { AccessStore } from '../access-store.ts';
import { createPostgresAccessRows } from './access.ts';
import { createPostgresUsageStore } from './usage.ts';

// The store of several replicas: one PostgreSQL database, reached through a pool of this
// process's connections. Opened once the database answers (waited for while it does not);
// later, a lost connection fails the one call that met it (a StoreUnavailableError), and the pool
// connects again for the next.

export type PostgresStoreOptions = {
  /** DATABASE_URL: postgres://user:password@host:port/database?sslmode=… */
  url: string;
  /** The most connections this process opens. */
  poolSize: number;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Queries behind buttons unused for this long are forgotten. */
  queryTtlDays?: number;
  /** How long to wait between tries while the database does not answer at start. */
  backoff?: Backoff;
  /** How long a connection may take to open (or to be free) before the call fails. */
  connectTimeoutMs?: number;
  /** How long a statement may run before the server cancels it; default 30 s. */
  statementTimeoutMs?: number;
  /** How long to wait between tries while the settings listener's connection is lost. */
  listenBackoff?: Backoff;
};

const DAY_MS = 86_400_000;
/** /readyz asks every few seconds: a database that takes longer than this is not ready. */
const PING_TIMEOUT_MS = 3_000;
const OPEN_BACKOFF: Backoff = { baseMs: 500, maxMs: 10_000 };
const LISTEN_BACKOFF: Backoff = { baseMs: 250, maxMs: 10_000 };

/**
 * Runs `open` until the database answers: a refused or lost connection is logged and tried again
 * after a backoff, for as long as it takes (the orchestrator decides when to give up). What
 * another try would not mend is thrown at once, as a StoreOpenError with what to do.
 */
const whenReachable = async <T>(open: () => Promise<T>, { database, logger, backoff }: { database: string; logger: Logger; backoff: Backoff }): Promise<T> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await open();
    } catch (error) {
      const final = finalOpenError(error, database);
      if (final) throw final;
      if (error instanceof StoreVersionError) throw error;
      if (!isConnectionFailure(error)) {
        throw new StoreOpenError(database, failureReason(error), "Check DATABASE_URL and the database server's log.", { cause: error });
      }
      const retryInMs = Math.round(backoffDelay(attempt, backoff));
      logger.warn({ database, attempt: attempt + 1, retryInMs, reason: failureReason(error) }, 'the database does not answer: the store will try again');
      await pause(retryInMs);
    }
  }
};

export const openPostgresStore = async ({
  url,
  poolSize,
  logger,
  now = Date.now,
  queryTtlDays = 180,
  backoff = OPEN_BACKOFF,
  connectTimeoutMs,
  statementTimeoutMs,
  listenBackoff = LISTEN_BACKOFF,
}: PostgresStoreOptions): Promise<Store> => {
  const database = describeDatabase(url);
  const pool = createPool({ url, size: poolSize, ...(connectTimeoutMs !== undefined && { connectTimeoutMs }), ...(statementTimeoutMs !== undefined && { statementTimeoutMs }) });
  // An idle connection the server closed (a restart, an administrator) is reported here rather
  // than to a caller; unheard, it would end the process. The pool opens another when needed.
  pool.on('error', (error) => logger.warn({ database, reason: failureReason(error) }, 'a connection to the database was lost'));

  let queries: Awaited<ReturnType<typeof createPostgresQueryStore>>;
  let version: number;
  const accessRows = withPostgresErrors(createPostgresAccessRows(pool), database);
  // Who admins allowed, in memory: read here once, then again on each notice (or every second while notices go unheard).
  // Info, at most once a minute: a database that is down is warned about by what fails.
  let failedAt = Number.NEGATIVE_INFINITY;
  const allowed = cacheAccess(() => accessRows.allowedIds(), {
    onError: (error) => {
      if (Date.now() - failedAt < 60_000) return;
      failedAt = Date.now();
      logger.info({ database, reason: failureReason(error) }, 'the allowed users and groups could not be read again: the last list read stays in force');
    },
  });
  try {
    [version, queries] = await whenReachable(
      async () => {
        const migrated = await migratePostgres(pool);
        const read = await createPostgresQueryStore(pool, { now, ttlMs: queryTtlDays * DAY_MS });
        await allowed.refresh();
        return [migrated, read] as const;
      },
      { database, logger, backoff },
    );
  } catch (error) {
    await pool.end();
    throw error;
  }
  logger.info({ database, schemaVersion: version, poolSize }, 'the store is PostgreSQL');

  // Suspended (read through) until the listener hears changes made by other replicas.
  // One record per user or chat id for both caches (id-records.ts).
  const records = createIdRecords(ID_RECORDS);
  const settings = cacheSettings(withPostgresErrors(createPostgresSettingsStore(pool, now), database), { live: false, records });
  const watches = cacheWatches(withPostgresErrors(createPostgresWatchStore(pool), database), { live: false, records });
  const listener = await listenForSettings({ url, database, logger, cache: settings, watches, access: allowed, backoff: listenBackoff, ...(connectTimeoutMs !== undefined && { connectTimeoutMs }) });
  const written = (kind: 'user' | 'chat', id: number, allowedNow: boolean) => (changed: boolean): boolean => {
    if (changed) allowed.apply(kind, id, allowedNow);
    return changed;
  };
  const access: AccessStore = {
    ...accessRows,
    hasUser: allowed.hasUser,
    hasChat: allowed.hasChat,
    allowUser: (grant) => accessRows.allowUser(grant).then(written('user', grant.id, true)),
    denyUser: (userId) => accessRows.denyUser(userId).then(written('user', userId, false)),
    allowChat: (grant) => accessRows.allowChat(grant).then(written('chat', grant.id, true)),
    denyChat: (chatId) => accessRows.denyChat(chatId).then(written('chat', chatId, false)),
  };
  const coordination = createPostgresCoordination(pool, database);
  let ended: Promise<void> | undefined;
  return {
    backend: 'postgres',
    queries: withPostgresErrors(queries, database),
    settings: settings.settings,
    watches: watches.watches,
    // The task's own failures are its caller's: `exclusively` guards only its own SQL.
    coordination: { ...withPostgresErrors(coordination, database), exclusively: coordination.exclusively },
    limits: withPostgresErrors(createPostgresLimits(pool), database),
    autolookup: withPostgresErrors(createPostgresAutolookupStore(pool), database),
    answerModes: withPostgresErrors(createPostgresAnswerModeStore(pool), database),
    statuses: withPostgresErrors(createPostgresStatusStore(pool), database),
    access,
    usage: withPostgresErrors(createPostgresUsageStore(pool), database),
    guestCards: withPostgresErrors(createPostgresGuestCardStore(pool), database),
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const answered = pool.query('SELECT 1');
      // Past the deadline the query may still fail: heard here, not as an unhandled rejection.
      answered.catch(() => {});
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([answered, deadline]);
      } catch (error) {
        throw new StoreUnavailableError(database, failureReason(error), { cause: error });
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => (ended ??= listener.close().then(() => {
      allowed.close();
      return pool.end();
    })),
  };
};

