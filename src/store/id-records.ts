import { createLru, type Lru } from './lru.ts';

// What this process keeps in memory per user or chat id (a user's settings and flood window, a
// chat's watch state and language) in one record per id, in one bounded table: an update reads
// its user's and its chat's state (a private chat has its user's id) through one Map entry and
// one record, not one in each cache's own map (fewer cache misses with many users).
//
// Each cache has a column of the table: an Lru over ids, as its own map was. Past the capacity
// the least recently used id goes with everything kept for it (each cache then reads its store
// again; a flood window is forgiven).

/**
 * The ids a store's caches keep, together (users, groups, private chats sharing their user's):
 * about 21 MB at the bound (docs/performance.md). A quarter of it (lru.ts) is 25,000: with fewer
 * ids in use, reading one moves nothing.
 */
export const ID_RECORDS = 100_000;

/** What a column keeps: anything but undefined, which is "nothing kept". */
export type Kept = NonNullable<unknown> | null;

/** A column: one cache's values, by id. */
export type IdColumn<V extends Kept> = Lru<number, V>;

export type IdRecords = {
  /** A column of its own for one cache; at most four per table (the sqlite store takes all four). */
  column<V extends Kept>(): IdColumn<V>;
  /** Ids with anything kept. */
  readonly size: number;
};

type Slot = 'c0' | 'c1' | 'c2' | 'c3';
/** One shape for every record, each column a field of it. */
type IdRecord = Record<Slot, unknown>;
const SLOTS: readonly Slot[] = ['c0', 'c1', 'c2', 'c3'];

const isEmpty = (record: IdRecord) => record.c0 === undefined && record.c1 === undefined && record.c2 === undefined && record.c3 === undefined;

export const createIdRecords = (capacity: number): IdRecords => {
  if (!(capacity >= 1)) throw new RangeError(`an id table holds at least one id: ${capacity}`);
  /** How many values each column keeps, kept up to date through evictions. */
  const counts: Record<Slot, number> = { c0: 0, c1: 0, c2: 0, c3: 0 };
  const records = createLru<number, IdRecord>(capacity, {
    onEvict(record) {
      for (const slot of SLOTS) if (record[slot] !== undefined) counts[slot] -= 1;
    },
  });
  let columns = 0;

  // The casts of a slot's value to V: a slot holds only what its column's `set` put there.
  const column = <V extends Kept>(slot: Slot): IdColumn<V> => {
    const unset = (record: IdRecord) => {
      record[slot] = undefined;
      counts[slot] -= 1;
    };
    /** Forgets this column's values `expired` says so of, and each record left with nothing kept. */
    const deleteWhere = (expired: (value: V, id: number) => boolean) => {
      if (counts[slot] === 0) return;
      records.deleteWhere((record, id) => {
        if (record[slot] !== undefined && expired(record[slot] as V, id)) unset(record);
        return isEmpty(record);
      });
    };
    return {
      get: (id) => records.get(id)?.[slot] as V | undefined,
      peek: (id) => records.peek(id)?.[slot] as V | undefined,
      set(id, value) {
        // An id already kept moves as a read does (lru.ts: not when it is among the newest
        // quarter); a new one is placed at the newest end.
        let record = records.get(id);
        if (record === undefined) {
          record = { c0: undefined, c1: undefined, c2: undefined, c3: undefined };
          records.set(id, record);
        }
        if (record[slot] === undefined) counts[slot] += 1;
        record[slot] = value;
      },
      delete(id) {
        const record = records.peek(id);
        if (record === undefined || record[slot] === undefined) return;
        unset(record);
        if (isEmpty(record)) records.delete(id);
      },
      deleteWhere,
      // A walk over every id kept (other columns' too): for a suspension, which is rare.
      clear: () => deleteWhere(() => true),
      get size() {
        return counts[slot];
      },
    };
  };

  return {
    column<V extends Kept>() {
      const slot = SLOTS[columns];
      if (slot === undefined) throw new Error(`an id table has at most ${SLOTS.length} columns`);
      columns += 1;
      return column<V>(slot);
    },
    get size() {
      return records.size;
    },
  };
};
