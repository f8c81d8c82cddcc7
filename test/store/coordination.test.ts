import { describe, expect, it } from 'vitest';
import { describeCoordinationContract, overlap, T0, TTL } from './coordination-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeCoordinationContract(sqliteBackend());
const postgres = postgresBackend();
describeCoordinationContract(postgres);

describe('postgres: coordination between replicas', () => {
  const place = usePlace(postgres);

  it('gives a lease to one replica at a time', async () => {
    const one = (await place().open()).coordination;
    const two = (await place().open()).coordination;
    expect(await one.lease('polling', 'replica-1', T0, TTL)).toBe(true);
    expect(await two.lease('polling', 'replica-2', T0 + 1_000, TTL)).toBe(false);
    expect(await two.lease('polling', 'replica-2', T0 + TTL, TTL)).toBe(true);
    expect(await one.lease('polling', 'replica-1', T0 + TTL + 1, TTL)).toBe(false);
  });

  it('gives a free lease to exactly one of several replicas asking at once', async () => {
    const stores = await Promise.all([1, 2, 3, 4, 5].map(() => place().open()));
    const taken = await Promise.all(stores.map((store, i) => store.coordination.lease('polling', `replica-${i}`, T0, TTL)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('shares values between replicas', async () => {
    const one = (await place().open()).coordination;
    const two = (await place().open()).coordination;
    await one.setValue('webhook-secret', 's3cret', T0);
    expect(await two.value('webhook-secret')).toBe('s3cret');
  });

  it('makes a replica wait for the task another runs under the same name', async () => {
    const one = (await place().open()).coordination;
    const two = (await place().open()).coordination;
    const { whileFirstRan, events, results } = await overlap(one, two);
    expect(whileFirstRan).toEqual(['one starts']);
    expect(events).toEqual(['one starts', 'one ends', 'two starts']);
    expect(results).toEqual(['one', 'two']);
  });

  it('lets the lock go when the task fails', async () => {
    const one = (await place().open()).coordination;
    const two = (await place().open()).coordination;
    await expect(one.exclusively('set-webhook', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await two.exclusively('set-webhook', async () => 'ran')).toBe('ran');
  });
});
