import { describe, expect, it } from 'vitest';
import { queryKey } from '../../../src/store/query-store.ts';
import type { Query } from '../../../src/query.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { createClock, DAY, HOUR, useTempDirs, withRawDb } from '../support.ts';

const tempDir = useTempDirs();
const query = (value: string): Query => ({ resource: 'specification', filter: 'CONTRACT_NUMBER', value });

type Row = { key: string; created_at: number; last_used_at: number };
const rows = (dataDir: string): Row[] =>
  withRawDb(dataDir, (db) => db.prepare('SELECT key, created_at, last_used_at FROM queries ORDER BY key').all() as Row[]);
const keys = (dataDir: string) => rows(dataDir).map((row) => row.key);

describe('the sqlite query store', () => {
  it('gives the same query the same key and keeps one row, touching it on save at most once an hour', () => {
    const dataDir = tempDir();
    const clock = createClock();
    const start = clock.now();
    const store = openSqliteStore({ dataDir, now: clock.now });
    const key = store.queries.save(query('ДП-77/2026'));
    expect(key).toBe(queryKey(query('ДП-77/2026')));
    clock.advance(5 * 60_000);
    expect(store.queries.save(query('ДП-77/2026'))).toBe(key);
    expect(rows(dataDir)).toEqual([{ key, created_at: start, last_used_at: start }]);
    clock.advance(HOUR);
    expect(store.queries.save(query('ДП-77/2026'))).toBe(key);
    expect(rows(dataDir)).toEqual([{ key, created_at: start, last_used_at: start + 5 * 60_000 + HOUR }]);
    expect(store.queries.load(key)).toEqual(query('ДП-77/2026'));
    expect(store.queries.load('unknown')).toBeUndefined();
    store.close();
  });

  it('touches an entry on load at most once an hour', () => {
    const dataDir = tempDir();
    const clock = createClock();
    const start = clock.now();
    const store = openSqliteStore({ dataDir, now: clock.now });
    const key = store.queries.save(query('a'));
    clock.advance(59 * 60_000);
    store.queries.load(key);
    expect(rows(dataDir)[0]?.last_used_at).toBe(start);
    clock.advance(60_000);
    store.queries.load(key);
    expect(rows(dataDir)[0]?.last_used_at).toBe(start + HOUR);
    clock.advance(30 * 60_000);
    store.queries.load(key);
    expect(rows(dataDir)[0]?.last_used_at).toBe(start + HOUR);
    store.close();
  });

  it('forgets entries unused for the TTL when opened', () => {
    const dataDir = tempDir();
    const clock = createClock();
    const first = openSqliteStore({ dataDir, now: clock.now });
    const old = first.queries.save(query('old'));
    clock.advance(100 * DAY);
    const recent = first.queries.save(query('recent'));
    first.close();

    clock.advance(80 * DAY + 1);
    const second = openSqliteStore({ dataDir, now: clock.now });
    expect(second.queries.load(old)).toBeUndefined();
    expect(second.queries.load(recent)).toEqual(query('recent'));
    second.close();
  });

  it('prunes while saving, at most once a day', () => {
    const dataDir = tempDir();
    const clock = createClock();
    const store = openSqliteStore({ dataDir, now: clock.now, queryTtlDays: 1 });
    const a = store.queries.save(query('a'));
    clock.advance(DAY / 2);
    const b = store.queries.save(query('b'));
    clock.advance(DAY / 2 + 1);
    const c = store.queries.save(query('c'));
    expect(keys(dataDir)).toEqual([b, c].sort());
    // b goes stale now, but the last pruning was less than a day ago.
    clock.advance(DAY / 2);
    const d = store.queries.save(query('d'));
    expect(keys(dataDir)).toEqual([b, c, d].sort());
    clock.advance(DAY / 2);
    const e = store.queries.save(query('e'));
    // c was last used exactly one TTL ago: only what is older goes.
    expect(keys(dataDir)).toEqual([c, d, e].sort());
    expect(store.queries.load(a)).toBeUndefined();
    store.close();
  });

  it('reads a forged or corrupted row as missing, and a save repairs it', () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    const forged = [
      { resource: 'invoice', filter: 'SAP_ID', value: '1' },
      { resource: 'order', filter: 'CONTRACT_NUMBER', value: '1' },
      { resource: 'specification', filter: 'DROP TABLE', value: '1' },
    ];
    withRawDb(dataDir, (db) => {
      const insert = db.prepare('INSERT INTO queries VALUES (?, ?, ?, ?, 0, 0)');
      for (const [index, row] of forged.entries()) insert.run(`forged${index}`, row.resource, row.filter, row.value);
      // Well-formed, but not the query its key stands for.
      insert.run(queryKey(query('genuine')), 'specification', 'CONTRACT_NUMBER', 'tampered');
    });
    for (const index of forged.keys()) expect(store.queries.load(`forged${index}`)).toBeUndefined();
    expect(store.queries.load(queryKey(query('genuine')))).toBeUndefined();
    const key = store.queries.save(query('genuine'));
    expect(store.queries.load(key)).toEqual(query('genuine'));
    store.close();
  });

  it('writes a query again at once if its row went missing since it was saved', () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    const key = store.queries.save(query('a'));
    withRawDb(dataDir, (db) => db.prepare('DELETE FROM queries').run());
    expect(store.queries.load(key)).toBeUndefined();
    expect(store.queries.save(query('a'))).toBe(key);
    expect(store.queries.load(key)).toEqual(query('a'));
    store.close();
  });
});
