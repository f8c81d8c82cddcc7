/** Remembers the last `capacity` ids: `add` is false for one seen among them. */
export const createRecentIds = (capacity: number) => {
  // A Set iterates in insertion order: its first value is the oldest.
  const ids = new Set<number>();
  return {
    add(id: number): boolean {
      if (ids.has(id)) return false;
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value as number);
      return true;
    },
  };
};
