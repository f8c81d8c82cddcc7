import { createIdRecords, type IdRecords } from './id-records.ts';
import { andThen, type Awaitable } from './store.ts';
import type { WatchStore } from './watch-store.ts';

// Every update asks whether its chat has paused watches to resume, and every results message
// whether the chat watches what it shows (🔔 or 🔕): answered from this process's memory, one
// small record per chat (the keys it watches, whether any is paused), kept beside what the other
// caches keep for the same id (id-records.ts), the least recently used forgotten past a bound.
// Any write to a chat's watches through this process forgets its record; writes made elsewhere
// (another replica) arrive through `forget`, and while they might go unheard the cache is
// suspended, as the settings cache is.

/** What the cache keeps of a chat, read in one statement. */
export type ChatWatches = { targetKeys: string[]; paused: boolean };

/** A WatchStore that can also read a chat's record for the cache. */
export type CachableWatchStore = WatchStore & {
  /** The target keys the chat watches (unreadable targets too), and whether any of its watches is paused. */
  chatWatches(chatId: number): Awaitable<ChatWatches>;
};

/** How changes made elsewhere reach the cache (src/store/postgres/settings-listener.ts). */
export type WatchCacheControl = {
  /** Another process changed the chat's watches: the next read asks the store. */
  forget(chatId: number): void;
  /** Changes may go unheard from now on: forget everything, and read through until `resume`. */
  suspend(): void;
  /** Changes are heard again: start empty (some may have been missed) and keep what is read. */
  resume(): void;
};

export type WatchCache<T extends CachableWatchStore> = WatchCacheControl & {
  /** The same store, with `find` and `resumeChat` answered from memory when they can be. */
  watches: T;
  readonly size: number;
};

export type WatchCacheOptions = {
  /** The bound of a table of its own, when `records` is not given. */
  capacity?: number;
  live?: boolean;
  /** The table it shares with the other caches of the process: one column of it. */
  records?: IdRecords;
};

type Entry = { keys: ReadonlySet<string>; paused: boolean };

/** Most chats watch nothing: they share one entry. */
const NOTHING: Entry = Object.freeze({ keys: new Set<string>(), paused: false });

export const cacheWatches = <T extends CachableWatchStore>(inner: T, { capacity = 50_000, live: startLive = true, records = createIdRecords(capacity) }: WatchCacheOptions = {}): WatchCache<T> => {
  const chats = records.column<Entry>();
  let live = startLive;
  // Bumped by every invalidation: a read that began before keeps nothing, since what it saw may
  // be older than what was forgotten.
  let epoch = 0;
  const forget = (chatIds: number[]) => {
    epoch += 1;
    for (const chatId of chatIds) chats.delete(chatId);
  };

  const load = (chatId: number): Awaitable<Entry> => {
    const started = epoch;
    return andThen(inner.chatWatches(chatId), ({ targetKeys, paused }) => {
      const entry = targetKeys.length === 0 && !paused ? NOTHING : { keys: new Set(targetKeys), paused };
      if (live && started === epoch) chats.set(chatId, entry);
      return entry;
    });
  };
  const entryOf = (chatId: number): Awaitable<Entry> => chats.get(chatId) ?? load(chatId);

  /**
   * Runs a write, then forgets the chats it may have changed, whether it succeeded or failed (a
   * failed one may have been applied: a connection lost after the commit).
   */
  const writing = <R>(chatIds: number[], write: () => Awaitable<R>, changed: (result: R) => boolean = () => true): Awaitable<R> => {
    let result: Awaitable<R>;
    try {
      result = write();
    } catch (error) {
      forget(chatIds);
      throw error;
    }
    if (!(result instanceof Promise)) {
      if (changed(result)) forget(chatIds);
      return result;
    }
    return result.then(
      (value) => {
        if (changed(value)) forget(chatIds);
        return value;
      },
      (error: unknown) => {
        forget(chatIds);
        throw error;
      },
    );
  };

  const cached: Pick<CachableWatchStore, 'find' | 'resumeChat' | 'add' | 'remove' | 'pauseChat' | 'moveChat' | 'removeChat' | 'removeDigest'> = {
    find(chatId, key) {
      if (!live) return inner.find(chatId, key);
      // Only the answer "not watched" comes from memory: a watch itself is read (its lastChangeAt moves with each poll).
      return andThen(entryOf(chatId), (entry) => (entry.keys.has(key) ? inner.find(chatId, key) : undefined));
    },
    resumeChat(chatId) {
      if (!live) return inner.resumeChat(chatId);
      return andThen(entryOf(chatId), (entry) => (entry.paused ? writing([chatId], () => inner.resumeChat(chatId)) : false));
    },
    add: (watch) => writing([watch.chatId], () => inner.add(watch), (result) => result.ok && result.created),
    remove: (chatId, watchId) => writing([chatId], () => inner.remove(chatId, watchId), (removed) => removed),
    pauseChat: (chatId, now) => writing([chatId], () => inner.pauseChat(chatId, now)),
    moveChat: (fromChatId, toChatId) => writing([fromChatId, toChatId], () => inner.moveChat(fromChatId, toChatId)),
    removeChat: (chatId) => writing([chatId], () => inner.removeChat(chatId)),
    // A paused digest counts as paused watches: gone, nothing is left to resume.
    removeDigest: (chatId) => writing([chatId], () => inner.removeDigest(chatId)),
  };
  // Still a T: each method answers at once when the inner one does (`andThen` and `writing` keep a
  // plain value plain), so a sqlite store stays synchronous.
  const watches = { ...inner, ...cached } as T;

  return {
    watches,
    forget: (chatId) => forget([chatId]),
    suspend() {
      live = false;
      epoch += 1;
      chats.clear();
    },
    resume() {
      epoch += 1;
      chats.clear();
      live = true;
    },
    get size() {
      return chats.size;
    },
  };
};
