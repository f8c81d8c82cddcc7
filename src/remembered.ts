/**
 * `compute` with its last results kept, at most `max` of them (all dropped at once when full: no
 * bookkeeping per call). For pure functions of a small, repeating set of keys.
 */
export const remembered = <K, V>(compute: (key: K) => V, max: number): ((key: K) => V) => {
  const results = new Map<K, V>();
  return (key) => {
    let result = results.get(key);
    if (result === undefined) {
      result = compute(key);
      if (results.size >= max) results.clear();
      results.set(key, result);
    }
    return result;
  };
};

/**
 * Values kept for `ttlMs` after each was set, at most `max` of them (all dropped at once when
 * full): what this process learned from the store and may take as true for a while.
 */
export const rememberedFor = <K, V>({ ttlMs, max, now }: { ttlMs: number; max: number; now: () => number }) => {
  const entries = new Map<K, { value: V; at: number }>();
  return {
    /** The value set less than `ttlMs` ago, else undefined. */
    get(key: K): V | undefined {
      const known = entries.get(key);
      return known !== undefined && now() - known.at < ttlMs ? known.value : undefined;
    },
    set(key: K, value: V): void {
      if (entries.size >= max) entries.clear();
      entries.set(key, { value, at: now() });
    },
  };
};
