import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoPortal } from '../../src/demo/portal-server.ts';
import { DEMO_EPOCH } from '../../src/demo/motion.ts';
import { createPortalClient } from '../../src/portal/client.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { targetKey } from '../../src/store/target-key.ts';
import type { WatchTarget } from '../../src/store/watch-store.ts';
import { changeSetSchema } from '../../src/watch/changes.ts';
import { createMemoryBudget } from '../../src/memory-budget.ts';
import { watchPageCost } from '../../src/portal/page-cost.ts';
import { createPoller, nextPollAt, type PollerOptions } from '../../src/watch/poller.ts';
import { captureLogs } from '../support/logs.ts';
import { useTempDirs } from '../store/support.ts';

// The poller on the real sqlite store and the demo portal over HTTP, both on clocks the test moves.

const tempDir = useTempDirs();
const INTERVAL = 60_000;
const target: WatchTarget = { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } };

let demoNow = DEMO_EPOCH;
let now = Date.UTC(2026, 10, 23, 12);
let portalUp = true;
let demo: Awaited<ReturnType<typeof startDemoPortal>>;
let store: ReturnType<typeof openSqliteStore>;

beforeEach(async () => {
  demoNow = DEMO_EPOCH;
  now = Date.UTC(2026, 10, 23, 12);
  portalUp = true;
  demo = await startDemoPortal({ token: 'demo', clock: () => demoNow });
  store = openSqliteStore({ dataDir: tempDir() });
  store.watches.add({ chatId: 1, target, createdBy: 1, locale: 'en', now, limitPerChat: 10, firstPollAt: now });
});
afterEach(async () => {
  store.close();
  await demo.close();
});

const poller = (owner: string, options: Partial<PollerOptions> = {}) => {
  const portal = createPortalClient({ baseUrl: demo.url, token: 'demo', timeoutMs: 2_000 });
  return createPoller({
    store: store.watches,
    portal: {
      listOrders: (query, paging) => (portalUp ? portal.listOrders(query, paging) : Promise.reject(new Error('down'))),
      listSpecifications: (query, paging) => portal.listSpecifications(query, paging),
    },
    logger: pino({ level: 'silent' }),
    owner,
    intervalMs: INTERVAL,
    maxRecords: 100,
    concurrency: 2,
    leaseMs: 30_000,
    isAllowed: () => true,
    now: () => now,
    ...options,
  });
};

/** One round: what is due is claimed and polled to the end. */
const round = async (p: ReturnType<typeof poller>) => {
  const claimed = await p.tick();
  await p.settled();
  return claimed;
};
const pending = () => store.watches.claimNotifications('reader', now, 1, 100).map((n) => changeSetSchema.parse(JSON.parse(n.kind === 'change' ? n.changes : '')));

describe('the watch poller', () => {
  it('keeps each query on its own phase in the interval, skipping polls it missed', () => {
    expect(nextPollAt(1_000, 1_500, INTERVAL)).toBe(61_000);
    expect(nextPollAt(1_000, 200_000, INTERVAL)).toBe(241_000);
  });

  it('takes a first snapshot silently, then tells a change once, and nothing while nothing changes', async () => {
    const p = poller('me');
    expect(await round(p)).toBe(1);
    expect(pending()).toEqual([]);
    now += INTERVAL;
    expect(await round(p)).toBe(1);
    expect(pending()).toEqual([]);
    demoNow += 60_000;
    now += INTERVAL;
    await round(p);
    const [told, ...more] = pending();
    expect(more).toEqual([]);
    expect(told?.changes.map((change) => [change.sapId, change.kind])).toEqual([['0007300100', 'changed']]);
    expect(told?.changes[0]?.changes[0]).toEqual({ kind: 'field', field: 'status', from: 'Производство', to: 'Отгружен' });
  });

  it('polls nothing before it is due again', async () => {
    const p = poller('me');
    await round(p);
    now += INTERVAL - 1;
    expect(await round(p)).toBe(0);
  });

  it('keeps the last snapshot through a failed poll, and tells the change once the portal is back', async () => {
    const p = poller('me');
    await round(p);
    portalUp = false;
    demoNow += 60_000;
    now += INTERVAL;
    expect(await round(p)).toBe(1);
    expect(pending()).toEqual([]);
    portalUp = true;
    now += INTERVAL;
    await round(p);
    expect(pending().map((set) => set.changes.length)).toEqual([1]);
  });

  it('skips a poll whose records are more than its memory, with a log line, and tells the change once they fit', async () => {
    const { logger, lines } = captureLogs();
    const outcomes: string[] = [];
    const page = await createPortalClient({ baseUrl: demo.url, token: 'demo', timeoutMs: 2_000 }).listOrders({ resource: 'order', filter: 'SAP_ID', value: '0007300100' }, { limit: 20, offset: 0 });
    let room = 2 * watchPageCost(page);
    // Each poll's lease as large as `room` is when it starts.
    const sized = { lease: () => createMemoryBudget(room, room).lease(), used: () => 0 };
    const p = poller('me', { logger, memory: sized, events: { polled: (outcome) => void outcomes.push(outcome), changed: () => undefined } });
    await round(p);
    room = watchPageCost(page) / 2;
    demoNow += 60_000;
    now += INTERVAL;
    expect(await round(p)).toBe(1);
    expect(pending()).toEqual([]);
    expect(outcomes).toEqual(['ok', 'RECORDS_TOO_LARGE']);
    expect(lines.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({ key: targetKey(target), total: 1, reason: 'over', msg: 'a watch poll was skipped: its records are more than the memory a poll may take; it is tried again at its next time' }),
    ]);
    // Skipped until its next time, as a failed poll is.
    now += INTERVAL - 1;
    expect(await round(p)).toBe(0);
    room = 2 * watchPageCost(page);
    now += 1;
    await round(p);
    expect(pending().map((set) => set.changes.length)).toEqual([1]);
  });

  it('gives a poll’s memory back whatever its end, for the polls and /watch after it', async () => {
    const page = await createPortalClient({ baseUrl: demo.url, token: 'demo', timeoutMs: 2_000 }).listOrders({ resource: 'order', filter: 'SAP_ID', value: '0007300100' }, { limit: 20, offset: 0 });
    const memory = createMemoryBudget(2 * watchPageCost(page), 2 * watchPageCost(page));
    const p = poller('me', { memory });
    await round(p);
    expect(memory.used()).toBe(0);
    portalUp = false;
    now += INTERVAL;
    await round(p);
    expect(memory.used()).toBe(0);
  });

  it('takes over a claim whose process died, once its lease ran out', async () => {
    const dead = store.watches.claimDue('dead', now, 30_000, 10);
    expect(dead.map((claimed) => claimed.key)).toEqual([targetKey(target)]);
    const p = poller('me');
    now += 29_999;
    expect(await round(p)).toBe(0);
    now += 1;
    expect(await round(p)).toBe(1);
    now += INTERVAL;
    expect(await round(p)).toBe(1);
  });

  it('drops the watches of chats no longer allowed, and polls the portal no more for them', async () => {
    const portal = createPortalClient({ baseUrl: demo.url, token: 'demo', timeoutMs: 2_000 });
    let calls = 0;
    const p = createPoller({
      store: store.watches,
      portal: { ...portal, listOrders: (query, paging) => (calls++, portal.listOrders(query, paging)) },
      logger: pino({ level: 'silent' }),
      owner: 'me',
      intervalMs: INTERVAL,
      maxRecords: 100,
      concurrency: 2,
      leaseMs: 30_000,
      isAllowed: () => false,
      now: () => now,
    });
    await round(p);
    expect(calls).toBe(0);
    expect(store.watches.list(1)).toEqual([]);
  });
});
