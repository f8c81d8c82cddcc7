import { createIdRecords, type IdRecords } from '../id-records.ts';
import { createLru } from '../lru.ts';
import type { LimitStore } from '../store.ts';

// Flood windows and quiet periods in this process's memory: the sqlite store's limits, where one
// process receives every update. Each call is O(1) (lru.ts: a linked list through a Map), and only
// `sweep` walks them.

/** node:sqlite's store answers at once, and so do these. */
export type MemoryLimits = {
  hit(userId: number, now: number, windowMs: number, count?: number): number;
  take(key: string, now: number, quietMs: number): boolean;
  sweep(now: number): void;
};

export type MemoryLimitsOptions = {
  /**
   * The most quiet periods kept, and flood windows when `records` is not given; past it the
   * oldest are forgotten (forgiven) first.
   */
  maxKeys?: number;
  /**
   * The table the flood windows share with the other caches of the process (id-records.ts: an
   * update reads its user's window, settings and chat's watch state from one record); past its
   * bound, the least recently used id is forgotten (its window forgiven) first. Every id counts
   * toward that bound, strangers' (their settings are read before access is checked) and groups'
   * too: a window is forgiven early only once about three quarters of the bound in other ids
   * (75,000) came after its user's last update.
   */
  records?: IdRecords;
};

type FloodWindow = { endsAt: number; hits: number };

export const createMemoryLimits = ({ maxKeys = 100_000, records = createIdRecords(maxKeys) }: MemoryLimitsOptions = {}): MemoryLimits & LimitStore => {
  // Keyed by the user's id: a number, hashed and compared without a string built per query.
  const windows = records.column<FloodWindow>();
  // Set on each opening: the oldest opened is forgotten first once the map is full.
  const quietUntil = createLru<string, number>(maxKeys);
  return {
    hit(userId, now, windowMs, count = 1) {
      const open = windows.peek(userId);
      if (open && open.endsAt > now) {
        open.hits += count;
        return open.hits;
      }
      windows.set(userId, { endsAt: now + windowMs, hits: count });
      return count;
    },
    take(key, now, quietMs) {
      const until = quietUntil.peek(key);
      if (until !== undefined && until > now) return false;
      quietUntil.set(key, now + quietMs);
      return true;
    },
    sweep(now) {
      windows.deleteWhere((window) => window.endsAt <= now);
      quietUntil.deleteWhere((until) => until <= now);
    },
  };
};
