import type { QueryStore } from './query-store.ts';
import type { WatchStore } from './watch-store.ts';
import type { AccessStore } from './access-store.ts';
import type { UsageStore } from './usage-store.ts';
import type { Locale } from '../i18n.ts';
import type { PageSize, Query, Resource } from '../query.ts';

// What the bot keeps across restarts, and what several replicas share. Every read and write may
// be asynchronous, and the bot awaits each one: node:sqlite answers at once, PostgreSQL (the
// store of several replicas) with promises.

/** A value now, or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** `next` applied to an awaitable value: at once when it is a plain value (a sqlite store stays synchronous), else when it resolves. */
export const andThen = <T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> =>
  value instanceof Promise ? value.then(next) : next(value);

export type UserSettings = { locale?: Locale; pageSize?: PageSize };

export type SettingsStore = {
  /** `{}` when nothing is saved. */
  user(userId: number): Awaitable<UserSettings>;
  setUserLocale(userId: number, locale: Locale): Awaitable<void>;
  setUserPageSize(userId: number, pageSize: PageSize): Awaitable<void>;
  /** A group's language, set by its admin. */
  chatLocale(chatId: number): Awaitable<Locale | undefined>;
  setChatLocale(chatId: number, locale: Locale): Awaitable<void>;
  /** A chat's IANA time zone: a private chat's is its user's, a group's set by its admins. */
  chatTimeZone(chatId: number): Awaitable<string | undefined>;
  setChatTimeZone(chatId: number, timeZone: string): Awaitable<void>;
};

/**
 * What replicas agree on: leases (one holder at a time: the polling replica), values written once
 * and read by all (a generated webhook secret), and locks held while a task runs (setWebhook).
 */
export type CoordinationStore = {
  /**
   * Takes the lease `name` for `owner` until `now + ttlMs` when nobody holds it or its holder's
   * lease ended, or renews it when `owner` holds it; true when `owner` holds it now.
   */
  lease(name: string, owner: string, now: number, ttlMs: number): Awaitable<boolean>;
  /** Gives the lease up when `owner` holds it (a replica stopping): another may take it at once. */
  releaseLease(name: string, owner: string): Awaitable<void>;
  /** The value under `key`, if any. */
  value(key: string): Awaitable<string | undefined>;
  /** Sets `key` to `value`, replacing what it held. */
  setValue(key: string, value: string, now: number): Awaitable<void>;
  /** Runs `task` holding the lock `name`: no other process sharing the store runs a task under it meanwhile. */
  exclusively<T>(name: string, task: () => Promise<T>): Promise<T>;
};

/** Rate limits shared by replicas: a user gets the limit once, not once per replica. */
export type LimitStore = {
  /**
   * One query of the user in their flood window: a window starts at a hit when none is open and
   * lasts `windowMs`. Returns the hits in the open window, this one included (1 for the first).
   * Keyed by the user's id itself, a number: every query of every user passes here. `count`
   * queries at once (a pasted text's identifiers) count as that many hits.
   */
  hit(userId: number, now: number, windowMs: number, count?: number): Awaitable<number>;
  /** True when `key` is not in a quiet period, and starts one of `quietMs`; false during one. */
  take(key: string, now: number, quietMs: number): Awaitable<boolean>;
  /** Forgets windows and quiet periods over at `now`: on a timer, never on the way of an update. */
  sweep(now: number): Awaitable<void>;
};

/** A group that reads every message for identifiers (/autolookup, issue 30), shared by replicas. */
export type AutolookupStore = {
  enabled(chatId: number): Awaitable<boolean>;
  /** Turns it on (by the admin `userId`) or off. */
  set(chatId: number, on: boolean, userId: number, now: number): Awaitable<void>;
};

/** A guest card of one record kept live (issue 32): edited when its query's record changes, until it expires. */
export type GuestCard = {
  inlineMessageId: string;
  query: Query;
  /** The language it was written in. */
  locale: string;
  /** A hash of what it shows (without the time of its data): an edit is made only when this changes. */
  shown: string;
  /** Epoch ms after which it is left as it is. */
  expiresAt: number;
};

export type GuestCardStore = {
  add(card: GuestCard, now: number): Awaitable<void>;
  /**
   * Claims the live cards of up to `limit` queries not checked since `dueBefore` (epoch ms), marking
   * them checked at `now`: each query's cards together, so its record is asked for once, by one replica.
   */
  claimDue(now: number, dueBefore: number, limit: number): Awaitable<GuestCard[]>;
  /** What a card shows now, after an edit. */
  setShown(inlineMessageId: string, shown: string): Awaitable<void>;
  /** Forgets a card: Telegram no longer knows its message. */
  remove(inlineMessageId: string): Awaitable<void>;
  /** Forgets the cards expired at `now`; how many. */
  prune(now: number): Awaitable<number>;
};

/** How a group's lookups are answered (/answers, issue 32): for everyone (the default) or for the asker alone. */
export type AnswerMode = 'public' | 'private';

/** The groups whose admins chose private answers, shared by replicas. */
export type AnswerModeStore = {
  mode(chatId: number): Awaitable<AnswerMode>;
  /** Sets the mode (by the admin `userId`); public is the default and keeps no row. */
  set(chatId: number, mode: AnswerMode, userId: number, now: number): Awaitable<void>;
};

/** A status code seen in a record, and the text the portal wrote beside it ('' when none). */
export type StatusPair = { resource: Resource; field: 'STATUS' | 'STATUS_TYPE'; code: string; text: string };

/** The statuses the bot has seen in records (issue 30): what a status typed by name maps to. */
export type StatusStore = {
  /** Every pair kept, the most recently seen first, at most MAX_STATUSES. */
  all(): Awaitable<StatusPair[]>;
  /** Keeps what was seen: a code's text is the latest one seen. */
  learn(pairs: readonly StatusPair[], now: number): Awaitable<void>;
};

/** The most status codes kept and read back; a code or text longer than these limits is not kept. */
export const MAX_STATUSES = 200;
export const MAX_STATUS_CODE_LENGTH = 64;
export const MAX_STATUS_TEXT_LENGTH = 200;

/** Pairs worth keeping: codes and texts within the limits, each code once (the last text wins). */
export const keptStatuses = (pairs: readonly StatusPair[]): StatusPair[] => {
  const kept = new Map<string, StatusPair>();
  for (const pair of pairs) {
    const code = pair.code.trim();
    const text = pair.text.trim();
    if (code === '' || code.length > MAX_STATUS_CODE_LENGTH || text.length > MAX_STATUS_TEXT_LENGTH) continue;
    kept.set(`${pair.resource}\n${pair.field}\n${code}`, { resource: pair.resource, field: pair.field, code, text });
  }
  return [...kept.values()];
};

/** A row as the store holds it, or undefined for one this version does not know. */
export const readStatusRow = (row: Record<string, unknown>): StatusPair | undefined => {
  const { resource, field, code, text } = row;
  if ((resource !== 'order' && resource !== 'specification') || (field !== 'STATUS' && field !== 'STATUS_TYPE')) return undefined;
  if (typeof code !== 'string' || typeof text !== 'string') return undefined;
  return { resource, field, code, text };
};

export type Store = {
  /** Which backend keeps it: the embedded file, or PostgreSQL shared by replicas. */
  backend: 'sqlite' | 'postgres';
  queries: QueryStore;
  settings: SettingsStore;
  watches: WatchStore;
  coordination: CoordinationStore;
  limits: LimitStore;
  autolookup: AutolookupStore;
  /** Issue 32: a group's /answers. */
  answerModes: AnswerModeStore;
  statuses: StatusStore;
  /** Who admins allowed in the chat (held in memory too), and strangers' access requests. */
  access: AccessStore;
  /** The counters of /stats. */
  usage: UsageStore;
  /** Guest cards kept live (issue 32). */
  guestCards: GuestCardStore;
  /** Resolves when the store answers now; rejects (a StoreUnavailableError) when it does not: /readyz. */
  ping(): Promise<void>;
  /** Idempotent. */
  close(): Awaitable<void>;
};
