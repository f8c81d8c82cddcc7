import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createWatchMemory, type Admission, type MemoryBudget } from '../memory-budget.ts';
import { watchPageCost } from '../portal/page-cost.ts';
import type { PortalClient } from '../portal/client.ts';
import type { Watch, WatchStore, WatchTarget } from '../store/watch-store.ts';
import { targetKey } from '../store/target-key.ts';
import type { Access } from '../access.ts';
import type { Locale } from '../i18n.ts';
import { fetchAll, RecordsTooLargeError } from '../portal/fetch-all.ts';
import { snapshotOf, watchedRecords } from './snapshot.ts';

export type Watches = ReturnType<typeof createWatches>;

/**
 * Who asks for a watch, as plain values: the chat, its forum topic (a forum's only: elsewhere a
 * thread id belongs to a reply thread), the user, and the language its notifications speak.
 */
export type Watcher = { chatId: number; threadId?: number; userId?: number; locale: Locale };

export type StartResult =
  | { kind: 'added' | 'already'; watch: Watch; count?: number }
  | { kind: 'tooMany'; total: number; max: number }
  | { kind: 'tooLarge' | 'busy' }
  | { kind: 'limit'; limit: number }
  | { kind: 'notAllowed'; chatId: number };

/**
 * When a new target is first polled: a fixed offset within the interval taken from its key, so
 * that targets added together (a morning's worth of /watch) are polled spread over the interval,
 * and the same target always lands at the same offset.
 */
export const pollOffset = (key: string, intervalMs: number): number =>
  createHash('sha256').update(key).digest().readUInt32BE(0) % intervalMs;

/** What the /watch command and the 🔔 🔕 buttons do to a chat's watches; each change leaves an audit line. */
export const createWatches = ({
  store,
  portal,
  config,
  access,
  logger,
  now,
  memory = createWatchMemory(config.memoryBytes),
  onAdded,
}: {
  store: WatchStore;
  /** The portal; its `fresh`, past the cache, reads the first snapshot. */
  portal: PortalClient & { fresh?: PortalClient };
  config: Pick<Config['watch'], 'intervalMs' | 'limitPerChat' | 'maxRecords' | 'memoryBytes'>;
  access: Pick<Access, 'mayWatchIn'>;
  logger: Logger;
  now: () => Date;
  /** What watch readings may take of the heap, shared with the poller. */
  memory?: MemoryBudget;
  /** Told of each watch added (/stats counts them). */
  onAdded?: () => void;
}) => {
  const audit = (userId: number | undefined, watch: Watch, message: 'watch added' | 'watch stopped') => {
    const { resource, filter, value } = watch.target.query;
    const sapId = watch.target.sapId === undefined ? {} : { sapId: watch.target.sapId };
    logger.info({ audit: true, chatId: watch.chatId, userId, watchId: watch.id, resource, filter, value, ...sapId }, message);
  };

  /** The target's records read (each page counted by `hold`), and the watch added with them as its first snapshot. */
  const addReading = async (who: Watcher, target: WatchTarget, key: string, hold: (page: object) => Admission): Promise<StartResult> => {
    const all = await fetchAll(portal.fresh ?? portal, target.query, config.maxRecords + 1, { hold });
    if (all.total > config.maxRecords) return { kind: 'tooMany', total: all.total, max: config.maxRecords };
    const at = now().getTime();
    const added = await store.add({
      chatId: who.chatId,
      ...(who.threadId === undefined ? {} : { threadId: who.threadId }),
      target,
      createdBy: who.userId ?? who.chatId,
      locale: who.locale,
      now: at,
      limitPerChat: config.limitPerChat,
      firstPollAt: at + pollOffset(key, config.intervalMs),
      // What the chat was shown is what later changes are told against, from this moment on.
      snapshot: JSON.stringify(snapshotOf(watchedRecords(all, target.sapId))),
    });
    if (!added.ok) return { kind: 'limit', limit: config.limitPerChat };
    if (!added.created) return { kind: 'already', watch: added.watch };
    audit(who.userId, added.watch, 'watch added');
    onAdded?.();
    return { kind: 'added', watch: added.watch, count: watchedRecords(all, target.sapId).items.length };
  };

  return {
    /** Whether the chat may have watches: an allowed user in a group not on the list may not make them there. */
    mayWatch: (chatId: number): boolean => access.mayWatchIn(chatId),

    /** The chat's watch of a target, if any: a button shows 🔕 for it. */
    find: async (chatId: number, target: WatchTarget): Promise<Watch | undefined> => store.find(chatId, targetKey(target)),

    list: async (chatId: number): Promise<Watch[]> => store.list(chatId),

    /**
     * Watches a target for the chat: already watched, too many records (the portal asked
     * past the cache, one more than the maximum to know it is past), records too large for the
     * memory a poll may take (or that memory held by others now), the chat's limit, or added.
     * The records fetched here are the watch's first snapshot (when nobody watched the target yet).
     */
    async start(who: Watcher, target: WatchTarget): Promise<StartResult> {
      const { chatId } = who;
      // Its watches would go at their first poll: the group must be on the list itself.
      if (!access.mayWatchIn(chatId)) return { kind: 'notAllowed', chatId };
      const key = targetKey(target);
      const existing = await store.find(chatId, key);
      if (existing) return { kind: 'already', watch: existing };
      const lease = memory.lease();
      try {
        return await addReading(who, target, key, (page) => lease.take(watchPageCost(page)));
      } catch (error) {
        if (!(error instanceof RecordsTooLargeError)) throw error;
        if (error.total > config.maxRecords) return { kind: 'tooMany', total: error.total, max: config.maxRecords };
        logger.info({ chatId, resource: target.query.resource, filter: target.query.filter, value: target.query.value, total: error.total, reason: error.reason }, 'a watch was refused: its records are more than the memory a watch poll may take');
        return { kind: error.reason === 'busy' ? 'busy' : 'tooLarge' };
      } finally {
        lease.free();
      }
    },

    /** Stops one of the chat's watches; undefined when the chat has no such watch (a forged or stale button). */
    async stop({ chatId, userId }: Pick<Watcher, 'chatId' | 'userId'>, watchId: number): Promise<Watch | undefined> {
      const watch = (await store.list(chatId)).find((candidate) => candidate.id === watchId);
      if (!watch || !(await store.remove(chatId, watchId))) return undefined;
      audit(userId, watch, 'watch stopped');
      return watch;
    },
  };
};
