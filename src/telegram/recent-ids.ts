/** Remembers the last `capacity` ids: `add` is false for one seen among them. O(1) per call. */
export const createRecentIds = (capacity: number) => {
  // The ids in a ring, oldest first from `next`, and a Set to look them up. Not the Set's own
  // insertion order (its first value is the oldest): each delete at its front leaves a hole that
  // the next `values().next()` walks past from the start, so an add cost O(capacity) once the Set
  // was full (3 µs at 10,000 ids, 22 µs at 100,000; 0.2 at 1,000).
  const ids = new Set<number>();
  const ring: number[] = [];
  let next = 0;
  return {
    add(id: number): boolean {
      if (ids.has(id)) return false;
      if (ring.length < capacity) {
        ring.push(id);
      } else {
        ids.delete(ring[next]!);
        ring[next] = id;
        next = (next + 1) % capacity;
      }
      ids.add(id);
      return true;
    },
  };
};
