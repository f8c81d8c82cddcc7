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
  /** Told only a change of status (or status type) and a record that starts or stops matching; else all changes. */
  statusOnly?: true;
  /** Told in the chat's digest only; else at once (and in the digest, when the chat has one). */
  digestOnly?: true;
  /** Snoozed: nothing is sent for it until then; its changes meanwhile are told in one message when it wakes. */
  snoozedUntil?: number;
};

/** What a chat may change of a watch of its own. */
export type WatchOptions = { statusOnly?: boolean; digestOnly?: boolean };

export type NewWatch = Omit<Watch, 'id' | 'createdAt' | 'lastChangeAt' | 'targetKey' | 'statusOnly' | 'digestOnly' | 'snoozedUntil'> & {
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

/** A message waiting to be sent: a watch's share of one poll's changes, or a part of a chat's digest. */
export type Notification = {
  id: number;
  chatId: number;
  threadId?: number;
  /** The language at the time it was queued: of the watch's maker, or the one a digest was prepared in. */
  locale: Locale;
  attempts: number;
} & (
  | {
      kind: 'change';
      watchId: number;
      target: WatchTarget;
      /** The ChangeSet as JSON (src/watch/changes.ts). */
      changes: string;
      /** Who made the watch: a group without a language of its own speaks theirs. */
      createdBy: number;
      /** The watch's options as they are now (its buttons show them). */
      statusOnly?: true;
      digestOnly?: true;
    }
  | {
      kind: 'digest';
      /** The prepared message as JSON (src/watch/digest-message.ts). */
      message: string;
    }
);

/** A chat's daily digest: when, where, and where its schedule stands. */
export type Digest = {
  chatId: number;
  /** The forum topic it was asked for in. */
  threadId?: number;
  /** The time of day, in the chat's time zone, in minutes since midnight (0–1439). */
  minute: number;
  /** Nothing at all (rather than one short line) on a day with nothing changed and nothing planned. */
  quiet: boolean;
  /** The language of who asked for it: the digest speaks it when the chat has none of its own. */
  locale: Locale;
  createdBy: number;
  createdAt: number;
  /** When the next digest is due. */
  nextAt: number;
  /** When the last one was prepared, if ever: the next one tells what changed since. */
  lastSentAt?: number;
  /** The due time of the first digest skipped since the last one (it was too late to send). */
  missedAt?: number;
};

export type NewDigest = Omit<Digest, 'createdAt' | 'lastSentAt' | 'missedAt'> & { now: number };

/** What a digest is prepared from, read in the transaction that records it. */
export type DigestInput = {
  digest: Digest;
  /** The chat's watches (snoozed ones too), each with its target's last snapshot (JSON), if any. */
  watches: Array<{ watch: Watch; snapshot?: string }>;
  /** The changes held for the digest since the last one, oldest first: not of snoozed watches. */
  held: Array<{ watchId: number; changes: string }>;
};

/** A poll's changes for the watches of its target: all of them, and those a status-only watch is told (JSON ChangeSets). */
export type PolledChanges = { changes?: string; statusChanges?: string };

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
   * A successful poll, in one transaction: the new snapshot, the next poll, and what each active
   * watch of the target is told (`statusChanges` for a status-only one, `changes` for the others;
   * nothing when that is not given): a pending notification, or, for a snoozed watch, changes held
   * until it wakes; and changes held for the chat's digest when it has one (a digest-only watch
   * gets nothing else). False when the lease was lost (another process took the target over):
   * nothing is written.
   */
  recordPoll(key: string, owner: string, poll: { snapshot: string; nextPollAt: number; now: number } & PolledChanges): Awaitable<boolean>;

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
  /** The chat blocked the bot or is gone: its watches and its digest pause, its pending notifications and held changes are dropped. */
  pauseChat(chatId: number, now: number): Awaitable<void>;
  /**
   * The chat wrote to the bot again: its watches and digest resume (true when any were paused). Asked on
   * every update, so answered from memory when nothing is paused (watch-cache.ts): a pause made
   * by another replica less than a second ago may be missed, and is resumed by the next update.
   */
  resumeChat(chatId: number): Awaitable<boolean>;
  /**
   * The group became a supergroup with a new id: its watches and pending notifications move to
   * `toChatId`, without their topics (a basic group has none). A target `toChatId` already
   * watches keeps that watch; the moved chat's watch of it goes, with its notifications. Its
   * digest moves too, unless `toChatId` has one of its own.
   */
  moveChat(fromChatId: number, toChatId: number): Awaitable<void>;
  /** The chat may no longer use the bot: its watches, digest and notifications go, and the targets no other chat watches. */
  removeChat(chatId: number): Awaitable<void>;

  /** Sets options of one of the chat's watches; undefined when the chat has no such watch. */
  setOptions(chatId: number, watchId: number, options: WatchOptions): Awaitable<Watch | undefined>;
  /** Snoozes one of the chat's watches until `until` (from now, or longer); undefined when the chat has no such watch. */
  snooze(chatId: number, watchId: number, until: number): Awaitable<Watch | undefined>;
  /** Wakes a snoozed watch of the chat at once (its held changes are told by the next `wakeSnoozed`); undefined when there is no such watch. */
  resume(chatId: number, watchId: number, now: number): Awaitable<Watch | undefined>;
  /**
   * Wakes up to `max` watches whose snooze ended by `now`, each in one transaction: their held
   * changes (ChangeSets as JSON, oldest first) are folded by `fold` into one pending notification
   * (none when it answers undefined) and forgotten. Replicas never wake one watch twice. Answers how many woke.
   */
  wakeSnoozed(now: number, max: number, fold: (held: string[]) => string | undefined): Awaitable<number>;

  /** The chat's digest, if it has one. */
  digest(chatId: number): Awaitable<Digest | undefined>;
  /** Sets (or changes) the chat's digest; its held changes and the time of the last one stay. */
  setDigest(digest: NewDigest): Awaitable<Digest>;
  /** The chat's digest is due at `nextAt` instead (its time zone changed). */
  rescheduleDigest(chatId: number, nextAt: number): Awaitable<void>;
  /**
   * The chat has no digest any more: its held changes go, and its digest-only watches are told at
   * once again. Answers how many watches were digest-only, or undefined when it had no digest.
   */
  removeDigest(chatId: number): Awaitable<number | undefined>;
  /** Claims up to `max` digests due at `now` (not paused) that nobody holds or whose lease expired, for `leaseMs`. */
  claimDigests(owner: string, now: number, leaseMs: number, max: number): Awaitable<Digest[]>;
  /**
   * Prepares a claimed digest in one transaction: `build` turns what it is made from into its
   * messages (JSON; none on a quiet day), queued to send at `now`; the held changes it was given
   * are forgotten, the last digest becomes `now`, the next is due at `nextAt`. Undefined, writing
   * nothing, when `owner` no longer holds it; else how many messages were queued.
   */
  prepareDigest(chatId: number, owner: string, at: { now: number; nextAt: number }, build: (input: DigestInput) => string[]): Awaitable<number | undefined>;
  /** A claimed digest too late to send: due next at `nextAt`, its changes held for that one, which says this one was skipped. False when the lease was lost. */
  skipDigest(chatId: number, owner: string, nextAt: number): Awaitable<boolean>;
  /** A claimed digest that could not be prepared now: given back, due again at `retryAt`. */
  releaseDigest(chatId: number, owner: string, retryAt: number): Awaitable<void>;
};
