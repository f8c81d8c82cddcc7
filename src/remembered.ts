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
