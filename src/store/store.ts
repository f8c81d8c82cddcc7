import type { QueryStore } from './query-store.ts';
import type { WatchStore } from './watch-store.ts';
import type { Locale } from '../i18n.ts';
import type { PageSize } from '../portal/query.ts';

// What the bot keeps across restarts. Every read and write may be asynchronous, and the bot
// awaits each one: node:sqlite answers at once, a shared backend for several replicas (Redis,
// Postgres) later will answer with promises, and no caller has to change.

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

export type UserSettings = { locale?: Locale; pageSize?: PageSize };

export type SettingsStore = {
  /** `{}` when nothing is saved. */
  user(userId: number): Awaitable<UserSettings>;
  setUserLocale(userId: number, locale: Locale): Awaitable<void>;
  setUserPageSize(userId: number, pageSize: PageSize): Awaitable<void>;
  /** A group's language, set by its admin. */
  chatLocale(chatId: number): Awaitable<Locale | undefined>;
  setChatLocale(chatId: number, locale: Locale): Awaitable<void>;
};

export type Store = {
  queries: QueryStore;
  settings: SettingsStore;
  watches: WatchStore;
  /** Idempotent. */
  close(): void;
};
