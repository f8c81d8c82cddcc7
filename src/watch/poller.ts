import type { Logger } from 'pino';
import type { MemoryBudget } from '../memory-budget.ts';
import { watchPageCost } from '../portal/page-cost.ts';
import type { PortalClient } from '../portal/client.ts';
import { outcomeOf } from '../portal/resilience/intercept.ts';
import type { ClaimedTarget, Watch, WatchStore } from '../store/watch-store.ts';
import { readStored, snapshotSchema, type ChangeSet } from './changes.ts';
import { diffSnapshots } from './diff.ts';
import { fetchAll, RecordsTooLargeError } from '../portal/fetch-all.ts';
import { snapshotOf, watchedRecords } from './snapshot.ts';
import { statusChangesOf } from './status-only.ts';

/** What the poller reports, for metrics: one poll's outcome, the records it found changed. */
export type PollerEvents = {
  polled(outcome: string): void;
  changed(records: number): void;
};

export type PollerOptions = {
  store: WatchStore;
  /** The portal past its cache (a watch must see the portal, not a cached page), with its timeout, retry and breaker. */
  portal: PortalClient;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** This process, as a lease owner. */
  owner: string;
  intervalMs: number;
  maxRecords: number;
  /** Watched queries polled at once: a small share of the portal, so that user lookups come first. */
  concurrency: number;
  /** How long a claim holds: longer than any poll takes. */
  leaseMs: number;
  /** A watch whose chat may no longer use the bot is removed at its next poll. */
  isAllowed(watch: Watch): boolean;
  now?: () => number;
  events?: PollerEvents;
  /** Called when a poll ends and its slot is free: the caller claims more at once. */
  onSlotFree?: () => void;
  /** What a poll's records may take of the heap (shared with /watch); unbounded when not given. */
  memory?: MemoryBudget;
};

/** The next poll after one due at `dueAt`, on the same phase: polls stay spread over the interval. */
export const nextPollAt = (dueAt: number, now: number, intervalMs: number): number => {
  const missed = Math.floor(Math.max(0, now - dueAt) / intervalMs);
  return dueAt + (missed + 1) * intervalMs;
};


/**
 * Polls what the chats watch: each distinct watched query once per interval, however many chats
 * watch it. A due query is claimed from the store with a lease, so several processes sharing a
 * store never poll it twice; its records are fetched (all pages, past the cache), reduced to a
 * snapshot and compared with the last one; the new snapshot and the changes found (one pending
 * notification per watch) are recorded in one transaction before anything is sent. A failed poll
 * records nothing: the last snapshot stays, and the next poll compares against it. A query whose
 * records have grown past the memory a poll may take is skipped the same way, with a log line.
 */
export const createPoller = ({ store, portal, logger, owner, intervalMs, maxRecords, concurrency, leaseMs, isAllowed, now = Date.now, events, onSlotFree, memory }: PollerOptions) => {
  const running = new Set<Promise<void>>();
  /** The targets being polled here: one whose lease ran out mid-poll is not polled a second time. */
  const polling = new Set<string>();
  /** Each claim has its own lease token, so a poll that outlived its lease can never record. */
  let claims = 0;

  /** Watches whose chats may no longer use the bot go; true when the target is still watched. */
  const dropDisallowed = async (key: string): Promise<boolean> => {
    const watchers = await store.watchers(key);
    let kept = 0;
    for (const watch of watchers) {
      if (isAllowed(watch)) kept++;
      else {
        await store.remove(watch.chatId, watch.id);
        logger.info({ audit: true, chatId: watch.chatId, watchId: watch.id }, 'watch removed: the chat may no longer use the bot');
      }
    }
    return kept > 0;
  };

  const poll = async (claimed: ClaimedTarget, token: string): Promise<void> => {
    const next = nextPollAt(claimed.nextPollAt, now(), intervalMs);
    const lease = memory?.lease();
    try {
      if (!(await dropDisallowed(claimed.key))) {
        await store.release(claimed.key, token, next);
        return;
      }
      const all = await fetchAll(portal, claimed.target.query, maxRecords, lease ? { hold: (page) => lease.take(watchPageCost(page)) } : {});
      const truncated = all.total > maxRecords;
      if (truncated) logger.warn({ key: claimed.key, total: all.total, maxRecords }, 'a watched query has grown past WATCH_MAX_RECORDS: only the first are compared');
      const after = snapshotOf(watchedRecords(all, claimed.target.sapId));
      // A snapshot this version cannot read is as none: this poll takes a new one, telling nothing.
      const before = readStored(snapshotSchema, claimed.snapshot);
      const found = before === undefined ? [] : diffSnapshots(before, after);
      // Past the maximum, which records make the cut shifts from poll to poll: only changes count.
      const changes = truncated ? found.filter((change) => change.kind === 'changed') : found;
      const foundAt = now();
      const changeSet: ChangeSet | undefined = changes.length > 0 ? { resource: after.resource, changes, foundAt } : undefined;
      // What a status-only watch of the target is told, when anything.
      const statusOnly = statusChangesOf(changes);
      const recorded = await store.recordPoll(claimed.key, token, {
        snapshot: JSON.stringify(after),
        nextPollAt: next,
        now: foundAt,
        ...(changeSet && { changes: JSON.stringify(changeSet) }),
        ...(statusOnly.length > 0 && { statusChanges: JSON.stringify({ ...changeSet, changes: statusOnly }) }),
      });
      if (!recorded) logger.warn({ key: claimed.key }, 'a watch poll lost its lease: another process polls it');
      events?.polled('ok');
      if (recorded && changeSet) {
        events?.changed(changes.length);
        logger.info({ key: claimed.key, records: changes.length }, 'watch found changes');
      }
    } catch (error) {
      events?.polled(error instanceof RecordsTooLargeError ? error.code : outcomeOf(error));
      if (error instanceof RecordsTooLargeError) {
        logger.warn({ key: claimed.key, total: error.total, reason: error.reason }, 'a watch poll was skipped: its records are more than the memory a poll may take; it is tried again at its next time');
      } else logger.warn({ err: error, key: claimed.key }, 'a watch poll failed: nothing is told, the next poll compares with the last snapshot');
      await store.release(claimed.key, token, next);
    } finally {
      lease?.free();
    }
  };

  return {
    /** Claims what is due, up to the free poll slots, and starts polling it; resolves when claimed. */
    async tick(): Promise<number> {
      const room = concurrency - running.size;
      if (room <= 0) return 0;
      const token = `${owner}#${++claims}`;
      const claimed = await store.claimDue(token, now(), leaseMs, room);
      for (const target of claimed) {
        if (polling.has(target.key)) {
          // Its lease ran out while this process still polls it: let that poll be the one.
          logger.warn({ key: target.key, leaseMs }, 'a watch poll outlived its lease');
          await store.release(target.key, token, target.nextPollAt);
          continue;
        }
        polling.add(target.key);
        const task = poll(target, token)
          .catch((error: unknown) => logger.error({ err: error, key: target.key }, 'a watch poll could not be recorded'))
          .finally(() => {
            running.delete(task);
            polling.delete(target.key);
            onSlotFree?.();
          });
        running.add(task);
      }
      return claimed.length;
    },
    /** Polls under way. */
    inFlight: () => running.size,
    /** Resolves when the polls under way have ended. */
    settled: () => Promise.all([...running]).then(() => undefined),
  };
};

export type Poller = ReturnType<typeof createPoller>;
