import { describe, expect, it } from 'vitest';
import { describeAutolookupContract } from './autolookup-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeAutolookupContract(sqliteBackend());
const postgres = postgresBackend();
describeAutolookupContract(postgres);

describe('postgres: autolookup shared by replicas', () => {
  const place = usePlace(postgres);

  it('turned on through one replica, on for the next message another reads', async () => {
    const one = await place().open();
    const two = await place().open();
    await one.autolookup.set(-100, true, 42, 1_000);
    expect(await two.autolookup.enabled(-100)).toBe(true);
    await two.autolookup.set(-100, false, 42, 2_000);
    expect(await one.autolookup.enabled(-100)).toBe(false);
  });
});
