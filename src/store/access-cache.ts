import type { Grants } from '../access.ts';
import type { Awaitable } from './store.ts';

// The ids admins allowed, held in memory: every update asks, and the list is short (people of one
// company). Filled by reading the whole list; a write through this process changes it at once;
// a write through another replica arrives as a notice (postgres/settings-listener.ts) that reads
// the list again. While notices may go unheard the list is read again every POLL_MS instead, so a
// change made anywhere is in force everywhere within a second either way.

export type AllowedIds = { users: number[]; chats: number[] };

export type AccessCache = Grants & {
  /** Reads the list again; resolves once what the store held when called is in memory. */
  refresh(): Promise<void>;
  /** A write through this process: in force here at once. */
  apply(kind: 'user' | 'chat', id: number, allowed: boolean): void;
  /** Notices may go unheard from now on: read the list every POLL_MS until `resume`. */
  suspend(): void;
  /** Notices are heard again: read the list once (some may have been missed), stop polling. */
  resume(): void;
  /** Stops polling. */
  close(): void;
};

export const POLL_MS = 1_000;

export type AccessCacheOptions = {
  /** The list as just read (sqlite reads it at once), else empty until the first refresh. */
  initial?: AllowedIds;
  /** A read that failed: the list in memory stays as it was. */
  onError?: (error: unknown) => void;
  pollMs?: number;
};

export const cacheAccess = (read: () => Awaitable<AllowedIds>, { initial, onError = () => {}, pollMs = POLL_MS }: AccessCacheOptions = {}): AccessCache => {
  let users = new Set<number>(initial?.users);
  let chats = new Set<number>(initial?.chats);
  let timer: NodeJS.Timeout | undefined;
  // A read that began before the latest change or notice may miss it: it is followed by another.
  let wanted = 0;
  let running: Promise<void> | undefined;

  const readAll = async (): Promise<void> => {
    for (;;) {
      const generation = wanted;
      try {
        const ids = await read();
        // Older than a change made meanwhile: read again rather than undo it for a moment.
        if (generation !== wanted) continue;
        users = new Set(ids.users);
        chats = new Set(ids.chats);
        return;
      } catch (error) {
        // The list in memory stays as it was; the next notice or poll reads it again.
        onError(error);
        return;
      }
    }
  };

  const refresh = (): Promise<void> => {
    wanted += 1;
    running ??= readAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    hasUser: (userId) => users.has(userId),
    hasChat: (chatId) => chats.has(chatId),
    refresh,
    apply(kind, id, allowed) {
      wanted += 1;
      const set = kind === 'user' ? users : chats;
      if (allowed) set.add(id);
      else set.delete(id);
    },
    suspend() {
      timer ??= setInterval(() => void refresh(), pollMs).unref();
      void refresh();
    },
    resume() {
      clearInterval(timer);
      timer = undefined;
      void refresh();
    },
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
};
