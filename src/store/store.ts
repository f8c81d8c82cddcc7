import type { QueryStore } from '../bot/query-store.ts';
import type { Locale } from '../i18n.ts';
import type { PageSize } from '../portal/query.ts';

// What the bot keeps across restarts. Synchronous on purpose: node:sqlite is, and one style
// keeps callers simple. A shared backend for several replicas must then either be synchronous
// too or this interface changes to promises everywhere at once — never a mix.

export type UserSettings = { locale?: Locale; pageSize?: PageSize };

export type SettingsStore = {
  /** `{}` when nothing is saved. */
  user(userId: number): UserSettings;
  setUserLocale(userId: number, locale: Locale): void;
  setUserPageSize(userId: number, pageSize: PageSize): void;
  /** A group's language, set by its admin. */
  chatLocale(chatId: number): Locale | undefined;
  setChatLocale(chatId: number, locale: Locale): void;
};

export type Store = {
  queries: QueryStore;
  settings: SettingsStore;
  /** Idempotent. */
  close(): void;
};
