import type { Awaitable } from './store.ts';

// Usage counters for /stats, per calendar day (in TIME_ZONE, "2026-11-23"), shared by replicas:
// each adds its counts in batches (usage.ts), and /stats sums them over the days asked for.

export type UsageCount = { day: string; name: string; key: string; value: number };

/** One flush: counts to add, users active on a day, and when ids (users, groups) were last seen. */
export type UsageBatch = {
  counts: UsageCount[];
  users: Array<{ day: string; userId: number }>;
  seen: Array<{ id: number; at: number }>;
};

export type UsageStore = {
  /** Adds the counts, notes the users active, moves each last-seen time forward (never back). */
  add(batch: UsageBatch): Awaitable<void>;
  /** Every count of the days from `fromDay` on. */
  counts(fromDay: string): Awaitable<UsageCount[]>;
  /** Distinct users active on the days from `fromDay` on. */
  activeUsers(fromDay: string): Awaitable<number>;
  /** When each of `ids` was last seen, for those ever seen. */
  lastSeen(ids: readonly number[]): Awaitable<Map<number, number>>;
  /** Forgets the days before `beforeDay`. */
  prune(beforeDay: string): Awaitable<void>;
};
