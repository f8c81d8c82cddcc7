export type CooldownOptions = { quietMs: number; maxKeys: number; now: () => number };

/** Expired entries dropped per call: more than the one a call adds, so the map keeps up. */
const SWEEP_PER_CALL = 2;

/**
 * `take(key)` is true when `key` was not taken in the last `quietMs`, and starts its quiet period.
 * Every key waits the same time, so the map's insertion order is expiry order: each call drops a
 * few expired keys from the front, and past `maxKeys` the oldest, never scanning the whole map.
 */
export const createCooldown = ({ quietMs, maxKeys, now }: CooldownOptions) => {
  const until = new Map<string, number>();
  const dropOldest = () => {
    const oldest = until.keys().next();
    if (!oldest.done) until.delete(oldest.value);
  };
  return {
    take(key: string): boolean {
      const at = now();
      for (let i = 0; i < SWEEP_PER_CALL; i += 1) {
        const first = until.values().next();
        if (first.done || first.value > at) break;
        dropOldest();
      }
      const end = until.get(key);
      if (end !== undefined && end > at) return false;
      // Re-inserted at the end, where its new expiry belongs.
      until.delete(key);
      until.set(key, at + quietMs);
      if (until.size > maxKeys) dropOldest();
      return true;
    },
    get size(): number {
      return until.size;
    },
  };
};
