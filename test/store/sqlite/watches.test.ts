import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { targetKey } from '../../../src/store/target-key.ts';
import { useTempDirs, withRawDb } from '../support.ts';
import { added, CONTRACT, GROUP, MINUTE, newWatch, PIPE, PRIVATE, T0 } from '../watch-contract-support.ts';
import { describeWatchStoreContract } from '../watch-store-contract.ts';

const tempDir = useTempDirs();

describeWatchStoreContract('the sqlite watch store', () => {
  const store = openSqliteStore({ dataDir: tempDir() });
  return { store: store.watches, close: () => store.close() };
});

describe('the sqlite watch store on one file shared by two processes', () => {
  it('never lets both hold the same target', async () => {
    const dataDir = tempDir();
    const one = openSqliteStore({ dataDir });
    const two = openSqliteStore({ dataDir });
    await added(one.watches, newWatch(GROUP, CONTRACT));
    await added(one.watches, newWatch(GROUP, PIPE));
    expect(one.watches.claimDue('one', T0 + MINUTE, MINUTE, 1).map((claimed) => claimed.target)).toEqual([CONTRACT]);
    expect(two.watches.claimDue('two', T0 + MINUTE, MINUTE, 10).map((claimed) => claimed.target)).toEqual([PIPE]);
    expect(one.watches.claimDue('one', T0 + MINUTE, MINUTE, 10)).toEqual([]);
    one.close();
    two.close();
  });

  it('hands each due target to one of several processes claiming at once', async () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    for (let i = 0; i < 120; i += 1) {
      await added(store.watches, newWatch(GROUP, { query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: `труба ${i}` } }, { limitPerChat: 200 }));
    }
    store.close();
    const workers = ['a', 'b', 'c', 'd'].map(
      (owner) => new Worker(new URL('./claim-worker.ts', import.meta.url), { workerData: { dataDir, owner, now: T0 + MINUTE } }),
    );
    const claimed = (await Promise.all(workers.map(async (worker) => (await once(worker, 'message'))[0] as string[]))).flat();
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });
});

describe('the sqlite watch store', () => {
  it('keeps watches, snapshots and pending notifications across a restart', async () => {
    const dataDir = tempDir();
    const before = openSqliteStore({ dataDir });
    await added(before.watches, newWatch(GROUP, CONTRACT, { threadId: 3 }));
    before.watches.claimDue('a', T0 + MINUTE, MINUTE, 10);
    before.watches.recordPoll(targetKey(CONTRACT), 'a', { snapshot: '{"s":1}', nextPollAt: T0 + 2 * MINUTE, now: T0 + MINUTE, changes: '{"c":1}' });
    before.close();
    const after = openSqliteStore({ dataDir });
    expect(after.watches.list(GROUP)).toMatchObject([{ chatId: GROUP, threadId: 3, target: CONTRACT, lastChangeAt: T0 + MINUTE }]);
    expect(after.watches.claimDue('b', T0 + 2 * MINUTE, MINUTE, 10)).toMatchObject([{ snapshot: '{"s":1}' }]);
    expect(after.watches.claimNotifications('b', T0 + 2 * MINUTE, MINUTE, 10)).toMatchObject([{ chatId: GROUP, changes: '{"c":1}' }]);
    after.close();
  });

  it('skips a watch whose target it cannot read, and does not poll it', async () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    await added(store.watches, newWatch(GROUP, CONTRACT));
    await added(store.watches, newWatch(GROUP, PIPE));
    withRawDb(dataDir, (db) => db.prepare("UPDATE watch_targets SET filter = 'FUTURE_FILTER' WHERE key = ?").run(targetKey(PIPE)));
    expect(store.watches.list(GROUP).map((watch) => watch.target)).toEqual([CONTRACT]);
    expect(store.watches.find(GROUP, targetKey(PIPE))).toBeUndefined();
    expect(store.watches.claimDue('a', T0 + MINUTE, MINUTE, 10).map((claimed) => claimed.target)).toEqual([CONTRACT]);
    expect(store.watches.counts()).toEqual({ watches: 2, targets: 2, pending: 0 });
    store.close();
  });

  it('refuses a watch it could not keep', () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    expect(() => store.watches.add(newWatch(1.5, CONTRACT))).toThrow(RangeError);
    expect(() => store.watches.add(newWatch(PRIVATE, { query: { resource: 'order', filter: 'CONTRACT_NUMBER', value: 'x' } } as never))).toThrow(RangeError);
    expect(store.watches.counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
    store.close();
  });
});
