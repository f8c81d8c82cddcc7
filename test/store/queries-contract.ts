import { describe, expect, it } from 'vitest';
import type { Query } from '../../src/query.ts';
import { queryKey } from '../../src/store/query-store.ts';
import { usePlace, type Backend } from './store-backends.ts';
import { createClock, DAY, HOUR } from './support.ts';

// What every store's query store (the queries behind inline buttons) must do, whatever keeps
// it: run by queries.test.ts for each backend, on a fresh, empty store per test.

const query = (value: string): Query => ({ resource: 'specification', filter: 'CONTRACT_NUMBER', value });

export const describeQueriesContract = (backend: Backend): void => {
  describe(`${backend.name}: queries behind buttons`, () => {
    const place = usePlace(backend);
    const keys = async () => (await place().sql('SELECT key FROM queries ORDER BY key')).map((row) => row.key);
    const lastUsed = async () => (await place().sql('SELECT last_used_at FROM queries')).map((row) => row.last_used_at);

    it('gives the same query the same key, and loads it back', async () => {
      const { queries } = await place().open();
      const key = await queries.save(query('ДП-77/2026'));
      expect(key).toBe(queryKey(query('ДП-77/2026')));
      expect(await queries.save(query('ДП-77/2026'))).toBe(key);
      expect(await keys()).toEqual([key]);
      expect(await queries.load(key)).toEqual(query('ДП-77/2026'));
      const order: Query = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530' };
      expect(await queries.load(await queries.save(order))).toEqual(order);
    });

    it('loads an unknown key as missing', async () => {
      const { queries } = await place().open();
      expect(await queries.load('unknown')).toBeUndefined();
      expect(await queries.load(queryKey(query('never saved')))).toBeUndefined();
    });

    it('touches an entry at most once an hour', async () => {
      const clock = createClock();
      const start = clock.now();
      const { queries } = await place().open({ now: clock.now });
      const key = await queries.save(query('a'));
      clock.advance(59 * 60_000);
      await queries.save(query('a'));
      await queries.load(key);
      expect(await lastUsed()).toEqual([start]);
      clock.advance(60_000);
      await queries.load(key);
      expect(await lastUsed()).toEqual([start + HOUR]);
    });

    it('forgets entries unused for the TTL when opened', async () => {
      const clock = createClock();
      const first = await place().open({ now: clock.now });
      const old = await first.queries.save(query('old'));
      clock.advance(100 * DAY);
      const recent = await first.queries.save(query('recent'));
      await first.close();
      clock.advance(80 * DAY + 1);
      const second = await place().open({ now: clock.now });
      expect(await second.queries.load(old)).toBeUndefined();
      expect(await second.queries.load(recent)).toEqual(query('recent'));
    });

    it('prunes while saving, at most once a day', async () => {
      const clock = createClock();
      const { queries } = await place().open({ now: clock.now, queryTtlDays: 1 });
      const a = await queries.save(query('a'));
      clock.advance(DAY / 2);
      const b = await queries.save(query('b'));
      clock.advance(DAY / 2 + 1);
      const c = await queries.save(query('c'));
      expect(await keys()).toEqual([b, c].sort());
      // b goes stale now, but the last pruning was less than a day ago.
      clock.advance(DAY / 2);
      const d = await queries.save(query('d'));
      expect(await keys()).toEqual([b, c, d].sort());
      clock.advance(DAY / 2);
      const e = await queries.save(query('e'));
      expect(await keys()).toEqual([c, d, e].sort());
      expect(await queries.load(a)).toBeUndefined();
    });

    it('reads a forged or tampered row as missing, and a save repairs it', async () => {
      const { queries } = await place().open();
      await place().sql("INSERT INTO queries VALUES ('forged', 'invoice', 'SAP_ID', '1', 0, 0)");
      await place().sql(`INSERT INTO queries VALUES ('${queryKey(query('genuine'))}', 'specification', 'CONTRACT_NUMBER', 'tampered', 0, 0)`);
      expect(await queries.load('forged')).toBeUndefined();
      expect(await queries.load(queryKey(query('genuine')))).toBeUndefined();
      const key = await queries.save(query('genuine'));
      expect(await queries.load(key)).toEqual(query('genuine'));
    });
  });
};
