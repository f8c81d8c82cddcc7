import { describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/store/store.ts';
import { failure, usePlace, type Backend } from './store-backends.ts';

// What every store's coordination (leases, shared values, locks) must do, whatever keeps it:
// run by coordination.test.ts for each backend, on a fresh, empty store per test.

export const T0 = Date.UTC(2026, 0, 1);
export const TTL = 15_000;

/** A promise and the function that resolves it. */
export const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

/**
 * Runs two tasks under `name` through `first` and `second`, the second asked for while the
 * first runs; the order in which they started and ended.
 */
export const overlap = async (first: CoordinationStore, second: CoordinationStore, name = 'set-webhook') => {
  const events: string[] = [];
  const started = gate();
  const finish = gate();
  const one = first.exclusively(name, async () => {
    events.push('one starts');
    started.open();
    await finish.opened;
    events.push('one ends');
    return 'one';
  });
  await started.opened;
  const two = second.exclusively(name, async () => {
    events.push('two starts');
    return 'two';
  });
  // Long enough for the second to start, were it not waiting (a round trip to the database).
  await new Promise((resolve) => setTimeout(resolve, 150));
  const whileFirstRan = [...events];
  finish.open();
  const results = await Promise.all([one, two]);
  return { whileFirstRan, events, results };
};

export const describeCoordinationContract = (backend: Backend): void => {
  describe(`${backend.name}: coordination`, () => {
    const place = usePlace(backend);
    const open = async () => (await place().open()).coordination;

    it('gives a lease to one owner at a time, and to another once it ended', async () => {
      const leases = await open();
      expect(await leases.lease('polling', 'a', T0, TTL)).toBe(true);
      expect(await leases.lease('polling', 'b', T0 + 1_000, TTL)).toBe(false);
      // Renewed by its holder, for another TTL from now.
      expect(await leases.lease('polling', 'a', T0 + 10_000, TTL)).toBe(true);
      expect(await leases.lease('polling', 'b', T0 + TTL, TTL)).toBe(false);
      expect(await leases.lease('polling', 'b', T0 + 10_000 + TTL - 1, TTL)).toBe(false);
      // The holder did not renew it in time: the next owner takes it, and the former holder is refused.
      expect(await leases.lease('polling', 'b', T0 + 10_000 + TTL, TTL)).toBe(true);
      expect(await leases.lease('polling', 'a', T0 + 10_000 + TTL + 1, TTL)).toBe(false);
    });

    it('lets another owner take a released lease at once; only its holder releases it', async () => {
      const leases = await open();
      expect(await leases.lease('polling', 'a', T0, TTL)).toBe(true);
      await leases.releaseLease('polling', 'b');
      expect(await leases.lease('polling', 'b', T0 + 1, TTL)).toBe(false);
      await leases.releaseLease('polling', 'a');
      expect(await leases.lease('polling', 'b', T0 + 2, TTL)).toBe(true);
      await leases.releaseLease('nothing-held', 'a');
    });

    it('keeps different leases apart', async () => {
      const leases = await open();
      expect(await leases.lease('polling', 'a', T0, TTL)).toBe(true);
      expect(await leases.lease('watch-sweeper', 'b', T0, TTL)).toBe(true);
      expect(await leases.lease('watch-sweeper', 'a', T0, TTL)).toBe(false);
      await leases.releaseLease('polling', 'a');
      expect(await leases.lease('watch-sweeper', 'a', T0, TTL)).toBe(false);
    });

    it('keeps a value under a key, replaced by the next one', async () => {
      const values = await open();
      expect(await values.value('webhook-secret')).toBeUndefined();
      await values.setValue('webhook-secret', 's3cret', T0);
      expect(await values.value('webhook-secret')).toBe('s3cret');
      await values.setValue('webhook-secret', 'rotated', T0 + 1);
      expect(await values.value('webhook-secret')).toBe('rotated');
      expect(await values.value('other')).toBeUndefined();
    });

    it('runs two overlapping tasks under one name one after the other', async () => {
      const locks = await open();
      const { whileFirstRan, events, results } = await overlap(locks, locks);
      expect(whileFirstRan).toEqual(['one starts']);
      expect(events).toEqual(['one starts', 'one ends', 'two starts']);
      expect(results).toEqual(['one', 'two']);
    });

    it('does not hold a task back for a task under another name', async () => {
      const locks = await open();
      const { whileFirstRan } = await overlap(locks, { ...locks, exclusively: (_, task) => locks.exclusively('other', task) });
      expect(whileFirstRan).toEqual(['one starts', 'two starts']);
    });

    it("gives a task's failure to its caller as it was, and the lock to the next task", async () => {
      const locks = await open();
      const broken = new Error('setWebhook failed');
      expect(await failure(() => locks.exclusively('set-webhook', () => Promise.reject(broken)))).toBe(broken);
      expect(await locks.exclusively('set-webhook', async () => 'next')).toBe('next');
    });
  });
};
