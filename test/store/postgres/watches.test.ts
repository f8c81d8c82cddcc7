import type pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/store/postgres/pool.ts';
import { openPostgresStore } from '../../../src/store/postgres/store.ts';
import type { Store } from '../../../src/store/store.ts';
import { targetKey } from '../../../src/store/target-key.ts';
import type { WatchStore, WatchTarget } from '../../../src/store/watch-store.ts';
import { freshDatabase } from '../../support/pg-database.ts';
import { added, CHANGES, CONTRACT, GROUP, MINUTE, newWatch, ONE_ORDER, PIPE, T0 } from '../watch-contract-support.ts';
import { describeWatchStoreContract } from '../watch-store-contract.ts';

// The watch store on a real PostgreSQL server (test/support/postgres.ts): the whole contract,
// then several replicas (here, stores opened separately on one database: each its own pool of
// connections, as each replica has) racing for the same rows.

const logger = pino({ level: 'silent' });
const open = (url: string): Promise<Store> => openPostgresStore({ url, poolSize: 4, logger });

describeWatchStoreContract('the PostgreSQL watch store', async () => {
  const store = await open(await freshDatabase('watches'));
  return { store: store.watches, close: () => store.close() };
});

/** What a test opened, closed after it. */
const opened: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
});

/**
 * `count` replicas' stores on one new database, opened at once (each migrating it, as replicas
 * starting together do), and a pool of the test's own to look at and lock rows directly.
 */
const replicas = async (count: number): Promise<{ raw: pg.Pool; stores: WatchStore[] }> => {
  const url = await freshDatabase('watches');
  const stores = await Promise.all(Array.from({ length: count }, () => open(url)));
  const raw = createPool({ url, size: 2 });
  opened.push(...stores, { close: () => raw.end() });
  return { raw, stores: stores.map((store) => store.watches) };
};

const pipe = (i: number): WatchTarget => ({ query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: `труба ${i}` } });

describe('the PostgreSQL watch store shared by several replicas', () => {
  it('hands each due target to exactly one of four replicas claiming at once', async () => {
    const { stores } = await replicas(4);
    const [first] = stores;
    if (!first) throw new Error('no replica');
    for (let i = 0; i < 120; i += 1) await added(first, newWatch(GROUP, pipe(i), { limitPerChat: 200 }));
    const claimed: string[] = [];
    // Several rounds, each a few claims per replica at once, until nothing is left.
    for (let round = 0; round < 60; round += 1) {
      const got = await Promise.all(stores.map((store, i) => store.claimDue(`replica-${i}`, T0 + MINUTE, MINUTE, 3)));
      claimed.push(...got.flat().map((target) => target.key));
      if (got.every((batch) => batch.length === 0)) break;
    }
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });

  it('sends each of 200 notifications through exactly one of four replicas claiming at once', async () => {
    const { stores } = await replicas(4);
    const [first] = stores;
    if (!first) throw new Error('no replica');
    for (let chat = 1; chat <= 200; chat += 1) await added(first, newWatch(chat, CONTRACT));
    const [target] = await first.claimDue('poller', T0 + MINUTE, MINUTE, 10);
    expect(await first.recordPoll(target?.key ?? '', 'poller', { snapshot: 's', nextPollAt: T0 + 2 * MINUTE, now: T0 + MINUTE, changes: CHANGES })).toBe(true);
    expect((await first.counts()).pending).toBe(200);
    const sent: number[] = [];
    await Promise.all(
      stores.map(async (store, i) => {
        for (;;) {
          const batch = await store.claimNotifications(`sender-${i}`, T0 + MINUTE, MINUTE, 7);
          if (batch.length === 0) return;
          for (const notification of batch) {
            sent.push(notification.chatId);
            await store.delivered(notification.id);
          }
        }
      }),
    );
    expect(sent).toHaveLength(200);
    expect(new Set(sent).size).toBe(200);
    expect(await first.counts()).toEqual({ watches: 200, targets: 1, pending: 0 });
  });

  it('keeps one watch when two replicas add the same one at once', async () => {
    const { stores } = await replicas(2);
    for (let chat = 1; chat <= 20; chat += 1) {
      const results = await Promise.all(stores.map((store) => store.add(newWatch(chat, CONTRACT))));
      expect(results.map((result) => result.ok && result.created).sort()).toEqual([false, true]);
      expect(results.map((result) => result.ok && result.watch.id)[0]).toBe(results.map((result) => result.ok && result.watch.id)[1]);
    }
    expect(await stores[0]?.counts()).toEqual({ watches: 20, targets: 1, pending: 0 });
  });

  it('holds the per-chat limit when two replicas add different watches to a chat at once', async () => {
    const { stores } = await replicas(2);
    for (let chat = 1; chat <= 20; chat += 1) {
      const results = await Promise.all(stores.map((store, i) => store.add(newWatch(chat, i === 0 ? CONTRACT : PIPE, { limitPerChat: 1 }))));
      expect(results.map((result) => (result.ok ? 'created' : result.reason)).sort()).toEqual(['created', 'limit']);
    }
    expect(await stores[0]?.counts()).toEqual({ watches: 20, targets: 2, pending: 0 });
  });

  it('keeps the target when one replica removes its last watch while another adds one', async () => {
    const { stores } = await replicas(2);
    const [one, two] = stores;
    if (!one || !two) throw new Error('no replicas');
    for (let round = 0; round < 20; round += 1) {
      const watch = await added(one, newWatch(GROUP, ONE_ORDER));
      const [, again] = await Promise.all([one.remove(GROUP, watch.id), two.add(newWatch(round + 1, ONE_ORDER))]);
      expect(again).toMatchObject({ ok: true, created: true });
      expect(await one.watchers(targetKey(ONE_ORDER))).toHaveLength(1);
      await two.removeChat(round + 1);
      expect(await one.counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
    }
  });

  it('claims past a target another replica holds locked, without waiting for it', async () => {
    const { raw: locker, stores: [, store] } = await replicas(2);
    if (!store) throw new Error('no replicas');
    const one = await added(store, newWatch(GROUP, CONTRACT));
    await added(store, newWatch(GROUP, PIPE));
    const client = await locker.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT key FROM watch_targets WHERE key = $1 FOR UPDATE', [one.targetKey]);
      const started = Date.now();
      expect((await store.claimDue('b', T0 + MINUTE, MINUTE, 10)).map((claimed) => claimed.target)).toEqual([PIPE]);
      expect(Date.now() - started).toBeLessThan(2_000);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect((await store.claimDue('c', T0 + MINUTE, MINUTE, 10)).map((claimed) => claimed.target)).toEqual([CONTRACT]);
  });

  it('keeps the lease of a target another replica polled: its late poll writes nothing', async () => {
    const { stores: [one, two] } = await replicas(2);
    if (!one || !two) throw new Error('no replicas');
    await added(one, newWatch(GROUP, CONTRACT));
    const key = targetKey(CONTRACT);
    await one.claimDue('one', T0 + MINUTE, MINUTE, 10);
    expect(await two.claimDue('two', T0 + 2 * MINUTE, MINUTE, 10)).toHaveLength(1);
    const [late, onTime] = await Promise.all([
      one.recordPoll(key, 'one', { snapshot: 'late', nextPollAt: T0 + 3 * MINUTE, now: T0 + 2 * MINUTE, changes: CHANGES }),
      two.recordPoll(key, 'two', { snapshot: 'on time', nextPollAt: T0 + 3 * MINUTE, now: T0 + 2 * MINUTE, changes: CHANGES }),
    ]);
    expect([late, onTime]).toEqual([false, true]);
    expect(await one.counts()).toEqual({ watches: 1, targets: 1, pending: 1 });
    expect((await one.claimDue('one', T0 + 3 * MINUTE, MINUTE, 10))[0]?.snapshot).toBe('on time');
  });
});

describe('digests and snoozes on PostgreSQL shared by several replicas', () => {
  const HOUR = 60 * MINUTE;
  const digestOf = (chatId: number) => ({ chatId, minute: 540, quiet: false, locale: 'ru' as const, createdBy: 7, now: T0, nextAt: T0 + HOUR });

  it('prepares each of 60 due digests through exactly one of four replicas, each its held changes once', async () => {
    const { stores } = await replicas(4);
    const [first] = stores;
    if (!first) throw new Error('no replica');
    for (let chat = 1; chat <= 60; chat += 1) {
      await added(first, newWatch(chat, CONTRACT));
      await first.setDigest(digestOf(chat));
    }
    const [target] = await first.claimDue('poller', T0 + MINUTE, MINUTE, 10);
    await first.recordPoll(target?.key ?? '', 'poller', { snapshot: 's', nextPollAt: T0 + 2 * MINUTE, now: T0 + MINUTE, changes: CHANGES });
    const told: number[] = [];
    await Promise.all(
      stores.map(async (store, i) => {
        for (;;) {
          const batch = await store.claimDigests(`replica-${i}`, T0 + HOUR, MINUTE, 3);
          if (batch.length === 0) return;
          for (const digest of batch) {
            await store.prepareDigest(digest.chatId, `replica-${i}`, { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => {
              told.push(...input.held.map(() => digest.chatId));
              return ['digest'];
            });
          }
        }
      }),
    );
    expect(told).toHaveLength(60);
    expect(new Set(told).size).toBe(60);
    // 60 notifications of the poll, 60 digest messages.
    expect((await first.counts()).pending).toBe(120);
  });

  it('wakes each of 40 snoozed watches through exactly one of three replicas waking at once', async () => {
    const { stores } = await replicas(3);
    const [first] = stores;
    if (!first) throw new Error('no replica');
    for (let chat = 1; chat <= 40; chat += 1) {
      const watch = await added(first, newWatch(chat, CONTRACT));
      await first.snooze(chat, watch.id, T0 + HOUR);
    }
    const [target] = await first.claimDue('poller', T0 + MINUTE, MINUTE, 10);
    await first.recordPoll(target?.key ?? '', 'poller', { snapshot: 's', nextPollAt: T0 + 2 * MINUTE, now: T0 + MINUTE, changes: CHANGES });
    expect((await first.counts()).pending).toBe(0);
    let folds = 0;
    const woken = await Promise.all(
      stores.map(async (store) => {
        let count = 0;
        for (let round = 0; round < 20; round += 1) {
          count += await store.wakeSnoozed(T0 + HOUR, 4, (held) => {
            folds += 1;
            return held.join('');
          });
        }
        return count;
      }),
    );
    expect(woken.reduce((a, b) => a + b, 0)).toBe(40);
    expect(folds).toBe(40);
    expect((await first.counts()).pending).toBe(40);
  });
});

describe('the PostgreSQL watch store', () => {
  it('skips a watch whose target it cannot read, and does not poll it', async () => {
    const { raw: pool, stores: [store] } = await replicas(1);
    if (!store) throw new Error('no replica');
    await added(store, newWatch(GROUP, CONTRACT));
    await added(store, newWatch(GROUP, PIPE));
    await pool.query("UPDATE watch_targets SET filter = 'FUTURE_FILTER' WHERE key = $1", [targetKey(PIPE)]);
    expect((await store.list(GROUP)).map((watch) => watch.target)).toEqual([CONTRACT]);
    expect(await store.find(GROUP, targetKey(PIPE))).toBeUndefined();
    expect((await store.claimDue('a', T0 + MINUTE, MINUTE, 10)).map((claimed) => claimed.target)).toEqual([CONTRACT]);
    expect(await store.counts()).toEqual({ watches: 2, targets: 2, pending: 0 });
  });

  it('refuses a watch it could not keep', async () => {
    const { stores: [store] } = await replicas(1);
    if (!store) throw new Error('no replica');
    await expect(store.add(newWatch(1.5, CONTRACT))).rejects.toThrow(RangeError);
    await expect(store.add(newWatch(GROUP, { query: { resource: 'order', filter: 'CONTRACT_NUMBER', value: 'x' } } as never))).rejects.toThrow(RangeError);
    expect(await store.counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
  });
});
