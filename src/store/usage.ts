import type { Logger } from 'pino';
import { isoDay, zoneOf } from '../zone.ts';
import type { UsageBatch, UsageStore } from './usage-store.ts';

// What /stats counts, counted in this process's memory on the way of updates (a map increment),
// and added to the store in one batch every FLUSH_MS, when /stats asks, and when the bot stops:
// no store call on the way of an update. Days are calendar days in TIME_ZONE. A batch the store
// refuses (it is down) is kept and added with the next one.

export const FLUSH_MS = 5_000;
/** Days kept: /stats looks 30 back; the rest is there for an operator's own queries. */
export const KEEP_DAYS = 90;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * The portal's answer times per day as a histogram (upper bounds, ms): a few dozen counters a day
 * instead of every sample; /stats reads p50 and p95 from it.
 */
export const PORTAL_MS_BUCKETS = [10, 25, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 30000, 60000] as const;
export const OVER_LAST_BUCKET = 'inf';

export const bucketOf = (ms: number): string => {
  for (const bound of PORTAL_MS_BUCKETS) if (ms <= bound) return String(bound);
  return OVER_LAST_BUCKET;
};

/** The counters' names, as kept in the store (usage_counts.name). */
export const USAGE = {
  lookupVia: 'lookup.via',
  lookupResource: 'lookup.resource',
  lookupFilter: 'lookup.filter',
  exports: 'export',
  watches: 'watch',
  notifications: 'notification',
  portalCalls: 'portal.outcome',
  portalMs: 'portal.ms',
  circuit: 'portal.circuit',
} as const;

export type Usage = ReturnType<typeof createUsage>;

/** "2026-11-23", `days` calendar days before `day`. */
export const daysBefore = (day: string, days: number): string => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - days)).toISOString().slice(0, 10);
};

export const createUsage = ({ timeZone, now = Date.now, logger }: { timeZone: string; now?: () => number; logger: Logger }) => {
  const zone = zoneOf(timeZone);
  // The day of the current minute, worked out once a minute (every update asks).
  let minute = Number.NaN;
  let minuteDay = '';
  const today = (): string => {
    const at = now();
    const thisMinute = Math.floor(at / 60_000);
    if (thisMinute !== minute) {
      minute = thisMinute;
      minuteDay = isoDay(zone.wallClock(at));
    }
    return minuteDay;
  };

  // day → counter name → key → count: no string is built on the way of an update.
  let counts = new Map<string, Map<string, Map<string, number>>>();
  let users = new Map<string, Set<number>>();
  let seen = new Map<number, number>();
  let store: UsageStore | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let prunedAt = Number.NEGATIVE_INFINITY;
  let warnedAt = Number.NEGATIVE_INFINITY;

  const count = (day: string, name: string, key: string, by = 1) => {
    let names = counts.get(day);
    if (names === undefined) counts.set(day, (names = new Map()));
    let keys = names.get(name);
    if (keys === undefined) names.set(name, (keys = new Map()));
    keys.set(key, (keys.get(key) ?? 0) + by);
  };

  const take = (): UsageBatch => {
    const batch: UsageBatch = {
      counts: [...counts].flatMap(([day, names]) => [...names].flatMap(([name, keys]) => [...keys].map(([key, value]) => ({ day, name, key, value })))),
      users: [...users].flatMap(([day, ids]) => [...ids].map((userId) => ({ day, userId }))),
      seen: [...seen].map(([id, at]) => ({ id, at })),
    };
    counts = new Map();
    users = new Map();
    seen = new Map();
    return batch;
  };

  /** A batch the store refused, back into memory under what was counted meanwhile. */
  const putBack = (batch: UsageBatch) => {
    for (const { day, name, key, value } of batch.counts) count(day, name, key, value);
    for (const { day, userId } of batch.users) (users.get(day) ?? users.set(day, new Set()).get(day)!).add(userId);
    for (const { id, at } of batch.seen) seen.set(id, Math.max(at, seen.get(id) ?? at));
  };

  const flushOnce = async (target: UsageStore): Promise<void> => {
    const batch = take();
    if (batch.counts.length + batch.users.length + batch.seen.length > 0) {
      try {
        await target.add(batch);
      } catch (error) {
        putBack(batch);
        throw error;
      }
    }
    if (now() - prunedAt >= PRUNE_EVERY_MS) {
      await target.prune(daysBefore(today(), KEEP_DAYS));
      prunedAt = now();
    }
  };

  /** Adds what was counted to the store; rejects when the store refused it (kept for the next try). */
  const flush = (): Promise<void> => {
    const target = store;
    if (target === undefined) return Promise.resolve();
    const next = flushing.then(() => flushOnce(target));
    flushing = next.catch(() => {});
    return next;
  };

  return {
    today,
    lookup(via: string, resource: string, filter: string) {
      const day = today();
      count(day, USAGE.lookupVia, via);
      count(day, USAGE.lookupResource, resource);
      count(day, USAGE.lookupFilter, `${resource}.${filter}`);
    },
    /** An export ended: sent, empty, too_large or failed. */
    exported(outcome: string) {
      count(today(), USAGE.exports, outcome);
    },
    watchAdded() {
      count(today(), USAGE.watches, 'added');
    },
    notification(outcome: string) {
      count(today(), USAGE.notifications, outcome);
    },
    portalCall(ms: number, outcome: string) {
      const day = today();
      count(day, USAGE.portalCalls, outcome);
      count(day, USAGE.portalMs, bucketOf(ms));
    },
    circuitOpened() {
      count(today(), USAGE.circuit, 'opened');
    },
    /** A user acted (in a group: the group is seen too). */
    seen(userId: number, chatId?: number) {
      const day = today();
      (users.get(day) ?? users.set(day, new Set()).get(day)!).add(userId);
      const at = now();
      seen.set(userId, at);
      if (chatId !== undefined && chatId !== userId) seen.set(chatId, at);
    },
    flush,
    /** Counts go to `target` from now on, every FLUSH_MS. */
    connect(target: UsageStore, flushMs = FLUSH_MS) {
      store = target;
      timer ??= setInterval(() => {
        flush().catch((error: unknown) => {
          // Kept in memory and tried again; said once a minute, not every few seconds.
          if (now() - warnedAt < 60_000) return;
          warnedAt = now();
          logger.warn({ err: error }, 'usage counts could not be saved: kept in memory and tried again');
        });
      }, flushMs).unref();
    },
    /** The last flush, then no more. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await flush().catch((error: unknown) => logger.warn({ err: error }, 'usage counts could not be saved at stop: lost'));
      store = undefined;
    },
  };
};
