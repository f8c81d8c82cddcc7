import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createIdRecords } from '../../src/store/id-records.ts';
import { createMemoryLimits } from '../../src/store/sqlite/limits.ts';
import { migrate } from '../../src/store/sqlite/migrations.ts';
import { cacheSettings } from '../../src/store/settings-cache.ts';
import { createSqliteSettingsStore } from '../../src/store/sqlite/settings.ts';
import { createSqliteWatchStore } from '../../src/store/sqlite/watches.ts';
import { cacheWatches } from '../../src/store/watch-cache.ts';

/** A table of the given bound with two columns. */
const namesAndAges = (capacity: number) => {
  const records = createIdRecords(capacity);
  return { records, names: records.column<string>(), ages: records.column<number>() };
};

describe('the id records (one per user or chat id, shared by the caches)', () => {
  it('keeps one record per id, whichever columns hold a value for it', () => {
    const { records, names, ages } = namesAndAges(10);
    names.set(1, 'a');
    ages.set(1, 30);
    ages.set(2, 40);
    expect([records.size, names.size, ages.size]).toEqual([2, 1, 2]);
    expect([names.get(1), ages.get(1), names.get(2), ages.peek(2)]).toEqual(['a', 30, undefined, 40]);
  });

  it('forgets one column’s value without the others’, and the record once nothing is kept in it', () => {
    const { records, names, ages } = namesAndAges(10);
    names.set(1, 'a');
    ages.set(1, 30);
    names.delete(1);
    names.delete(1); // twice: nothing more to forget
    expect([names.get(1), ages.get(1), records.size, names.size, ages.size]).toEqual([undefined, 30, 1, 0, 1]);
    ages.delete(1);
    expect([records.size, ages.size]).toEqual([0, 0]);
  });

  it('sweeps and clears one column only, walking past the ids it holds nothing for', () => {
    const records = createIdRecords(10);
    const until = records.column<number>();
    const names = records.column<string>();
    for (const id of [1, 2, 3]) until.set(id, id * 10);
    names.set(2, 'b');
    names.set(4, 'd');
    until.deleteWhere((value) => value <= 20);
    expect([until.peek(1), until.peek(2), until.peek(3), names.peek(2), records.size]).toEqual([undefined, undefined, 30, 'b', 3]);
    names.clear();
    expect([names.size, names.peek(2), names.peek(4), until.peek(3), records.size]).toEqual([0, undefined, undefined, 30, 1]);
  });

  it('forgets the least recently used id past its capacity, with every column’s value, and counts them out', () => {
    const { records, names, ages } = namesAndAges(2);
    names.set(1, 'a');
    ages.set(1, 30);
    names.set(2, 'b');
    // A read through either column makes the id recent for all of them.
    expect(ages.get(1)).toBe(30);
    names.set(3, 'c');
    expect([names.peek(1), ages.peek(1), names.peek(2), names.peek(3)]).toEqual(['a', 30, undefined, 'c']);
    names.set(4, 'd');
    expect([names.peek(1), ages.peek(1), records.size, names.size, ages.size]).toEqual([undefined, undefined, 2, 2, 0]);
  });

  it('has at most four columns, and room for at least one id', () => {
    const records = createIdRecords(2);
    for (let i = 0; i < 4; i += 1) records.column();
    expect(() => records.column()).toThrow('at most 4 columns');
    expect(() => createIdRecords(0)).toThrow('at least one id');
  });

  it('holds a user’s settings and flood window and their private chat’s watch state in one record, as the sqlite store shares it', async () => {
    const db = new DatabaseSync(':memory:');
    migrate(db);
    const T0 = Date.UTC(2026, 0, 1);
    const records = createIdRecords(100);
    const settings = cacheSettings(createSqliteSettingsStore(db, () => T0), { records });
    const watches = cacheWatches(createSqliteWatchStore(db), { records });
    const limits = createMemoryLimits({ records });
    // Private chats: the chat's id is its user's.
    for (const id of [42, 43]) {
      limits.hit(id, T0, 60_000);
      await settings.settings.user(id);
      await watches.watches.resumeChat(id);
    }
    expect([records.size, settings.size, watches.size]).toEqual([2, 2, 2]);
    // The sweep forgives the windows and keeps the rest: a hit within the old window counts from 1 again.
    limits.sweep(T0 + 60_000);
    expect(limits.hit(42, T0 + 1, 60_000)).toBe(1);
    // A suspension forgets the chats' watch state only.
    watches.suspend();
    expect([records.size, settings.size, watches.size]).toEqual([2, 2, 0]);
    db.close();
  });
});
