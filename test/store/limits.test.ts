import { describe, expect, it } from 'vitest';
import { describeLimitsContract, T0, WINDOW } from './limits-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeLimitsContract(sqliteBackend());
const postgres = postgresBackend();
describeLimitsContract(postgres);

describe('postgres: limits shared by replicas', () => {
  const place = usePlace(postgres);

  it('a user gets the limit, not once per replica', async () => {
    const one = (await place().open()).limits;
    const two = (await place().open()).limits;
    expect(await one.hit(1, T0, WINDOW)).toBe(1);
    expect(await two.hit(1, T0 + 1, WINDOW)).toBe(2);
    expect(await one.hit(1, T0 + 2, WINDOW)).toBe(3);
    expect(await two.take('refusal:1:-100', T0, WINDOW)).toBe(true);
    expect(await one.take('refusal:1:-100', T0 + 1, WINDOW)).toBe(false);
  });

  it('counts every one of many hits landing at once on two replicas', async () => {
    const one = (await place().open()).limits;
    const two = (await place().open()).limits;
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).hit(1, T0 + i, WINDOW)));
    expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const takes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).take('refusal:1:-100', T0, WINDOW)));
    expect(takes.filter(Boolean)).toHaveLength(1);
  });

  it('keys a flood window by `flood:` and the user id, as rows written by earlier releases are (a rolling upgrade shares them)', async () => {
    const { limits } = await place().open();
    await place().sql(`INSERT INTO rate_windows (key, started_at, ends_at, hits) VALUES ('flood:7', ${T0}, ${T0 + WINDOW}, 4)`);
    expect(await limits.hit(7, T0 + 1, WINDOW)).toBe(5);
    expect(await place().sql('SELECT key, hits FROM rate_windows ORDER BY key')).toEqual([{ key: 'flood:7', hits: 5 }]);
  });

  it('keeps no row of a window or quiet period swept', async () => {
    const limits = (await place().open()).limits;
    await limits.hit(1, T0, WINDOW);
    await limits.take('refusal:1:-100', T0, WINDOW);
    await limits.sweep(T0 + WINDOW);
    expect(await place().sql('SELECT (SELECT count(*) FROM rate_windows) AS windows, (SELECT count(*) FROM quiet_periods) AS quiet')).toEqual([
      { windows: 0, quiet: 0 },
    ]);
  });
});
