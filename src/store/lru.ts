// A bounded map for what a process keeps in memory per user or chat (settings-cache.ts,
// watch-cache.ts, memory-limits.ts).

/** A map that forgets its least recently used entry past `capacity`; O(1) per call. */
export type Lru<K, V> = {
  get(key: K): V | undefined;
  /** The value without making it recently used. */
  peek(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  /** Deletes every entry `expired` says so of: a walk over all of them, for a sweep on a timer. */
  deleteWhere(expired: (value: V, key: K) => boolean): void;
  clear(): void;
  readonly size: number;
};

export const createLru = <K, V>(capacity: number): Lru<K, V> => {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest first.
  const entries = new Map<K, V>();
  // The oldest is read from one long-lived iterator: a new one per eviction would walk again over
  // every slot deleted since the Map last compacted (20–70 µs a call once full, against 0.5).
  // An iterator skips deleted entries and sees those added after it, so it stays in LRU order.
  let oldest = entries.keys();
  const evictOldest = () => {
    let next = oldest.next();
    if (next.done === true) {
      oldest = entries.keys();
      next = oldest.next();
    }
    if (next.done !== true) entries.delete(next.value);
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    peek: (key) => entries.get(key),
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > capacity) evictOldest();
    },
    delete: (key) => void entries.delete(key),
    deleteWhere(expired) {
      for (const [key, value] of entries) if (expired(value, key)) entries.delete(key);
    },
    clear() {
      entries.clear();
      oldest = entries.keys();
    },
    get size() {
      return entries.size;
    },
  };
};
