import type { LimitStore } from './store.ts';

// Flood windows and quiet periods in this process's memory: the sqlite store's limits, where one
// process receives every update. Each call is O(1): the maps keep insertion order, so the oldest
// entry is the first one, and only `sweep` walks them.

/** node:sqlite's store answers at once, and so do these. */
export type MemoryLimits = {
  hit(key: string, now: number, windowMs: number): number;
  take(key: string, now: number, quietMs: number): boolean;
  sweep(now: number): void;
};

export type MemoryLimitsOptions = {
  /** The most keys kept in each map; past it the oldest are forgotten (forgiven) first. */
  maxKeys?: number;
};

/** Sets `key` last in `map`'s order, dropping the oldest entry when the map is full. */
const putLast = <V>(map: Map<string, V>, key: string, value: V, maxKeys: number): void => {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxKeys) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
};

export const createMemoryLimits = ({ maxKeys = 100_000 }: MemoryLimitsOptions = {}): MemoryLimits & LimitStore => {
  const windows = new Map<string, { endsAt: number; hits: number }>();
  const quietUntil = new Map<string, number>();
  return {
    hit(key, now, windowMs) {
      const open = windows.get(key);
      if (open && open.endsAt > now) {
        open.hits += 1;
        return open.hits;
      }
      putLast(windows, key, { endsAt: now + windowMs, hits: 1 }, maxKeys);
      return 1;
    },
    take(key, now, quietMs) {
      const until = quietUntil.get(key);
      if (until !== undefined && until > now) return false;
      putLast(quietUntil, key, now + quietMs, maxKeys);
      return true;
    },
    sweep(now) {
      for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
      for (const [key, until] of quietUntil) if (until <= now) quietUntil.delete(key);
    },
  };
};
