import type { Locale } from '../i18n.ts';
import { createIdRecords, type IdRecords } from './id-records.ts';
import { andThen, type Awaitable, type SettingsStore, type UserSettings } from './store.ts';

// Every update reads its user's settings (and its group's language): kept in this process's
// memory (id-records.ts: beside what the other caches keep for the same id), the least recently
// used forgotten past a bound. "Nothing saved" is kept too: it is the common case. Writes through
// this process update the cache; changes made elsewhere (another replica) arrive through
// `forget`, and while they might go unheard the cache is suspended.

export type SettingsKind = 'user' | 'chat';

export type SettingsCache = {
  settings: SettingsStore;
  /** Another process changed them: the next read asks the store. */
  forget(kind: SettingsKind, id: number): void;
  /** Changes may go unheard from now on: forget everything, and read through until `resume`. */
  suspend(): void;
  /** Changes are heard again: start empty (some may have been missed) and keep what is read. */
  resume(): void;
  readonly size: number;
};

export type SettingsCacheOptions = {
  /** The bound of a table of its own, when `records` is not given. */
  capacity?: number;
  live?: boolean;
  /** The table it shares with the other caches of the process: two columns of it. */
  records?: IdRecords;
};

/** One frozen object per combination: entries cost no allocation, and nobody can alter a shared one. */
const interned = new Map<string, Readonly<UserSettings>>();
const intern = (settings: UserSettings): UserSettings => {
  const key = `${settings.locale ?? ''}:${settings.pageSize ?? ''}`;
  let shared = interned.get(key);
  if (!shared) {
    shared = Object.freeze({ ...(settings.locale && { locale: settings.locale }), ...(settings.pageSize && { pageSize: settings.pageSize }) });
    interned.set(key, shared);
  }
  return shared;
};

/** What is kept of a chat: its language and time zone, null when none is saved. */
type ChatEntry = Readonly<{ locale: Locale | null; timeZone: string | null }>;
const internedChats = new Map<string, ChatEntry>();
const internChat = (locale: Locale | null, timeZone: string | null): ChatEntry => {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let shared = internedChats.get(key);
  if (!shared) {
    shared = Object.freeze({ locale, timeZone });
    internedChats.set(key, shared);
  }
  return shared;
};

export const cacheSettings = (inner: SettingsStore, { capacity = 50_000, live: startLive = true, records = createIdRecords(capacity) }: SettingsCacheOptions = {}): SettingsCache => {
  const users = records.column<UserSettings>();
  const chats = records.column<ChatEntry>();
  let live = startLive;
  // Bumped by every invalidation and write: a read or write that began before keeps nothing,
  // since what it saw may be older than what was forgotten.
  let epoch = 0;
  const forgetAll = () => {
    epoch += 1;
    users.clear();
    chats.clear();
  };

  const writeUser = (userId: number, write: () => Awaitable<void>, change: Partial<UserSettings>): Awaitable<void> => {
    const started = epoch;
    return andThen(write(), () => {
      const current = users.peek(userId);
      const keep = live && started === epoch && current !== undefined;
      epoch += 1;
      if (keep) users.set(userId, intern({ ...current, ...change }));
      else users.delete(userId);
    });
  };

  /** A chat's language and time zone, read together on a miss. */
  const chatEntry = (chatId: number): Awaitable<ChatEntry> => {
    const hit = live ? chats.get(chatId) : undefined;
    if (hit) return hit;
    const started = epoch;
    return andThen(inner.chatLocale(chatId), (locale) =>
      andThen(inner.chatTimeZone(chatId), (timeZone) => {
        const entry = internChat(locale ?? null, timeZone ?? null);
        if (live && started === epoch) chats.set(chatId, entry);
        return entry;
      }),
    );
  };

  const writeChat = (chatId: number, write: () => Awaitable<void>, change: Partial<ChatEntry>): Awaitable<void> => {
    const started = epoch;
    return andThen(write(), () => {
      const current = chats.peek(chatId);
      const keep = live && started === epoch && current !== undefined;
      epoch += 1;
      if (keep) chats.set(chatId, internChat(change.locale ?? current.locale, change.timeZone ?? current.timeZone));
      else chats.delete(chatId);
    });
  };

  const settings: SettingsStore = {
    user(userId) {
      const hit = live ? users.get(userId) : undefined;
      if (hit) return hit;
      const started = epoch;
      return andThen(inner.user(userId), (found) => {
        const shared = intern(found);
        if (live && started === epoch) users.set(userId, shared);
        return shared;
      });
    },
    setUserLocale: (userId, locale) => writeUser(userId, () => inner.setUserLocale(userId, locale), { locale }),
    setUserPageSize: (userId, pageSize) => writeUser(userId, () => inner.setUserPageSize(userId, pageSize), { pageSize }),
    chatLocale: (chatId) => andThen(chatEntry(chatId), (entry) => entry.locale ?? undefined),
    setChatLocale: (chatId, locale) => writeChat(chatId, () => inner.setChatLocale(chatId, locale), { locale }),
    chatTimeZone: (chatId) => andThen(chatEntry(chatId), (entry) => entry.timeZone ?? undefined),
    setChatTimeZone: (chatId, timeZone) => writeChat(chatId, () => inner.setChatTimeZone(chatId, timeZone), { timeZone }),
  };

  return {
    settings,
    forget(kind, id) {
      epoch += 1;
      (kind === 'user' ? users : chats).delete(id);
    },
    suspend() {
      live = false;
      forgetAll();
    },
    resume() {
      forgetAll();
      live = true;
    },
    get size() {
      return users.size + chats.size;
    },
  };
};
