import type { Locale } from '../i18n.ts';
import type { Query } from '../query.ts';
import type { Awaitable } from './store.ts';

// What the store keeps for watches: each chat's watches, one row per distinct watched query with
// its last snapshot and its poll schedule (claimed with a lease), and the notifications not yet
// sent (claimed with a lease too). Leases let several processes share one store: a claim not
// renewed before it expires may be taken by another process.

/** A watched query: the query, and for a watch of one record its SAP number. */
export type WatchTarget = { query: Query; sapId?: string };

export type Watch = {
  id: number;
  chatId: number;
  /** The forum topic the watch was made in, where its notifications go. */
  threadId?: number;
  /** The watched query's key: the same query watched in several chats is polled once. */
  targetKey: string;
  target: WatchTarget;
  createdBy: number;
  /** The language its notifications speak: the chat's (group) or the user's, at creation. */
  locale: Locale;
  createdAt: number;
  /** When a poll last found a change in it, if ever. */
  lastChangeAt?: number;
};

export type NewWatch = Omit<Watch, 'id' | 'createdAt' | 'lastChangeAt' | 'targetKey'> & {
  now: number;
  limitPerChat: number;
  firstPollAt: number;
  /**
   * The target as it was when the chat asked to watch it: the first poll tells what changed
   * since. Kept only for a target nobody watched yet; one already watched keeps its own.
   */
  snapshot?: string;
};

export type AddWatchResult =
  | { ok: true; watch: Watch; created: boolean }
  | { ok: false; reason: 'limit' };

/** A watched query claimed for polling by one process until `leaseUntil`. */
export type ClaimedTarget = { key: string; target: WatchTarget; snapshot?: string; nextPollAt: number };

/** A notification to send: one watch's share of one poll's changes. */
export type Notification = {
  id: number;
  watchId: number;
  chatId: number;
  threadId?: number;
  locale: Locale;
  target: WatchTarget;
  /** The ChangeSet as JSON (src/watch/changes.ts). */
  changes: string;
  attempts: number;
};

export type WatchStore = {
  /**
   * Adds a watch, or finds the same one (same chat, same target: returned as stored, created:
   * false, even at the limit); refuses a new one when the chat has `limitPerChat` watches, paused
   * ones included. A target nobody watched yet is first due at `firstPollAt`.
   */
  add(watch: NewWatch): Awaitable<AddWatchResult>;
  /**
   * Stops one watch of a chat; false when the chat has no such watch. Its pending notifications
   * go with it, and its target (with the snapshot) when no other chat watches it. Ids are never reused.
   */
  remove(chatId: number, watchId: number): Awaitable<boolean>;
  /** A chat's watches, oldest first. */
  list(chatId: number): Awaitable<Watch[]>;
  /** The chat's watch of a target, if any. */
  find(chatId: number, targetKey: string): Awaitable<Watch | undefined>;
  /** Every watch of the target (paused ones too), with the user who made it: for the allowlist check. */
  watchers(targetKey: string): Awaitable<Watch[]>;
  /** How many watches, distinct watched targets and pending notifications there are. */
  counts(): Awaitable<{ watches: number; targets: number; pending: number }>;

  /**
   * Claims up to `max` targets due at `now` (longest due first) that nobody holds or whose lease
   * has expired, and that at least one active (not paused) watch wants, for `leaseMs`. Two
   * owners never hold the same target.
   */
  claimDue(owner: string, now: number, leaseMs: number, max: number): Awaitable<ClaimedTarget[]>;
  /** A failed poll: the snapshot stays; the target is due again at `nextPollAt`. Nothing when `owner` no longer holds it. */
  release(key: string, owner: string, nextPollAt: number): Awaitable<void>;
  /**
   * A successful poll, in one transaction: the new snapshot, the next poll, and (when `changes`
   * is given) one pending notification per active watch of the target. False when the lease was
   * lost (another process took the target over): nothing is written.
   */
  recordPoll(key: string, owner: string, poll: { snapshot: string; nextPollAt: number; now: number; changes?: string }): Awaitable<boolean>;

  /**
   * Claims up to `max` notifications due at `now` that nobody holds (or whose lease expired),
   * oldest first, for `leaseMs`. A watch's notifications go in order: one waits while an older
   * one of the same watch is pending.
   */
  claimNotifications(owner: string, now: number, leaseMs: number, max: number): Awaitable<Notification[]>;
  /**
   * Extends to `until` the lease of those of `ids` that `owner` still holds (none gave it back,
   * no other owner took it over); answers their ids.
   */
  renewNotifications(owner: string, ids: readonly number[], until: number): Awaitable<number[]>;
  /** Sent: forgotten. */
  delivered(id: number): Awaitable<void>;
  /** Not sent now (a 429, Telegram down): one more attempt counted, the lease given back, due again at `at`. */
  retryLater(id: number, at: number): Awaitable<void>;
  /** Not tried now (a send limit, a hold after a 429): the lease given back, due again at `at`, no attempt counted. */
  postpone(id: number, at: number): Awaitable<void>;
  /** The chat blocked the bot or is gone: its watches pause, its pending notifications are dropped. */
  pauseChat(chatId: number, now: number): Awaitable<void>;
  /**
   * The chat wrote to the bot again: its watches resume (true when any were paused). Asked on
   * every update, so answered from memory when nothing is paused (watch-cache.ts): a pause made
   * by another replica less than a second ago may be missed, and is resumed by the next update.
   */
  resumeChat(chatId: number): Awaitable<boolean>;
  /**
   * The group became a supergroup with a new id: its watches and pending notifications move to
   * `toChatId`, without their topics (a basic group has none). A target `toChatId` already
   * watches keeps that watch; the moved chat's watch of it goes, with its notifications.
   */
  moveChat(fromChatId: number, toChatId: number): Awaitable<void>;
  /** The chat may no longer use the bot: its watches and notifications go, and the targets no other chat watches. */
  removeChat(chatId: number): Awaitable<void>;
};
