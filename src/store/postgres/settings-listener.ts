import pg from 'pg';
import type { Logger } from 'pino';
import { backoffDelay, pause, type Backoff } from '../../backoff.ts';
import { failureReason } from './errors.ts';
import type { SettingsCache } from '../settings-cache.ts';
import type { WatchCacheControl } from '../watch-cache.ts';
import type { AccessCache } from '../access-cache.ts';
import { ACCESS_CHANNEL } from './access.ts';

// How a replica hears that another changed someone's settings: each write notifies
// `settings_changed` with '<kind>:<id>' in its own statement (settings.ts), and this
// connection, apart from the pool (a pooled one may be closed when idle), listens. While it is
// down the cache is suspended; when it is back the cache starts empty, as notifications sent
// meanwhile were lost. The same connection hears `watches_changed` ('<chat id>', sent by
// watches.ts) for the watch cache, kept the same way. A connection that stops carrying
// anything without being closed (a NAT that forgot it) would be heard from by nothing: it is
// asked to answer every few seconds, and one that does not is taken for lost. It also hears
// `access_changed` (access.ts): the allowed ids are read again; while unheard, every second.

export const SETTINGS_CHANNEL = 'settings_changed';
export const WATCHES_CHANNEL = 'watches_changed';

export type SettingsListenerOptions = {
  url: string;
  database: string;
  logger: Logger;
  cache: SettingsCache;
  /** The watch cache, when there is one: heard, suspended and resumed with the settings cache. */
  watches?: WatchCacheControl;
  /** The allowed ids, when kept: read again on each notice, and every second while notices go unheard. */
  access?: Pick<AccessCache, 'refresh' | 'suspend' | 'resume'>;
  backoff: Backoff;
  connectTimeoutMs?: number;
  /** How often the connection is asked to answer, and how long it has to: default 5 s. */
  heartbeatMs?: number;
};

export type SettingsListener = { close(): Promise<void> };

const applyNotice = (cache: SettingsCache, payload: string | undefined): void => {
  const [kind, id] = (payload ?? '').split(':');
  const parsed = Number(id);
  if ((kind === 'user' || kind === 'chat') && id !== '' && Number.isSafeInteger(parsed)) cache.forget(kind, parsed);
  // What this version does not understand (a newer replica's notice): forget everything to be safe.
  else cache.resume();
};

const applyWatchNotice = (cache: WatchCacheControl, payload: string | undefined): void => {
  const chatId = Number(payload);
  if (payload !== undefined && payload !== '' && Number.isSafeInteger(chatId)) cache.forget(chatId);
  else cache.resume();
};

/** How long close() waits for the server to see the connection end: a stalled one never would. */
const CLOSE_WAIT_MS = 1_000;

/** Listens until closed, connecting again after each loss; resolves once the first try is over. */
export const listenForSettings = async ({ url, database, logger, cache, watches, access, backoff, connectTimeoutMs = 5_000, heartbeatMs = 5_000 }: SettingsListenerOptions): Promise<SettingsListener> => {
  const stop = new AbortController();
  let client: pg.Client | undefined;

  const connectOnce = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: 'order-lookup-bot settings' });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (client !== next || stop.signal.aborted) return;
      client = undefined;
      cache.suspend();
      watches?.suspend();
      access?.suspend();
      // Info, not a warning: settings stay right (read from the database), only slower; a database
      // that is down is warned about by what fails.
      logger.info({ database, reason: error ? failureReason(error) : 'the connection ended' }, 'settings changes are unheard: settings are read from the database until they are heard again');
      void keepListening();
    };
    next.on('notification', (message) => {
      if (message.channel === SETTINGS_CHANNEL) applyNotice(cache, message.payload);
      else if (message.channel === WATCHES_CHANNEL && watches) applyWatchNotice(watches, message.payload);
      else if (message.channel === ACCESS_CHANNEL && access) void access.refresh();
    });
    next.on('error', onLost);
    next.on('end', () => onLost());
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${SETTINGS_CHANNEL}`);
      if (watches) await next.query(`LISTEN ${WATCHES_CHANNEL}`);
      if (access) await next.query(`LISTEN ${ACCESS_CHANNEL}`);
    } catch (error) {
      lost = true;
      client = undefined;
      await next.end().catch(() => {});
      throw error;
    }
    if (stop.signal.aborted) {
      client = undefined;
      await next.end().catch(() => {});
      return;
    }
    cache.resume();
    watches?.resume();
    access?.resume();
    void keepAsking(next, () => lost, onLost);
  };

  /** A query every heartbeatMs, each with as long to answer; one late or failed loses the connection. */
  const keepAsking = async (connection: pg.Client, lost: () => boolean, onLost: (error: Error) => void): Promise<void> => {
    while (!lost() && !stop.signal.aborted) {
      await pause(heartbeatMs, stop.signal);
      if (lost() || stop.signal.aborted) return;
      const late = setTimeout(() => {
        onLost(new Error(`no answer to a heartbeat within ${heartbeatMs} ms`));
        // With the query unanswered, end() cuts the socket rather than waiting for the server.
        void connection.end().catch(() => {});
      }, heartbeatMs);
      try {
        await connection.query('SELECT 1');
      } catch (error) {
        onLost(error instanceof Error ? error : new Error(String(error)));
      } finally {
        clearTimeout(late);
      }
    }
  };

  /** Tries until connected or closed, waiting before each try: a server that cut us may be shutting down. */
  const keepListening = async (): Promise<void> => {
    for (let attempt = 0; !stop.signal.aborted; attempt += 1) {
      await pause(Math.round(backoffDelay(attempt, backoff)), stop.signal);
      if (stop.signal.aborted) return;
      try {
        await connectOnce();
        logger.info({ database, attempt: attempt + 1 }, 'settings changes are heard: the settings cache starts empty');
        return;
      } catch (error) {
        logger.info({ database, attempt: attempt + 1, reason: failureReason(error) }, 'settings changes cannot be heard: the listener will try again');
      }
    }
  };

  // The first try is waited for (the database has just answered), the next ones are not.
  try {
    await connectOnce();
  } catch (error) {
    logger.info({ database, reason: failureReason(error) }, 'settings changes cannot be heard yet: settings are read from the database meanwhile');
    access?.suspend();
    void keepListening();
  }

  return {
    async close() {
      stop.abort();
      const open = client;
      client = undefined;
      const ended = new AbortController();
      await Promise.race([open?.end().catch(() => {}), pause(CLOSE_WAIT_MS, ended.signal)]);
      ended.abort();
    },
  };
};
