import { afterEach, beforeEach } from 'vitest';
import { targetKey } from '../../src/store/target-key.ts';
import type { Awaitable } from '../../src/store/store.ts';
import type { NewWatch, Notification, WatchStore, WatchTarget } from '../../src/store/watch-store.ts';

// The fixtures of the WatchStore contract (watch-store-contract.ts), shared by its two halves.

/** A fresh, empty store for one test: at once (sqlite) or once its database is ready (PostgreSQL). */
export type OpenWatchStore = () => Awaitable<OpenedWatchStore>;
export type OpenedWatchStore = { store: WatchStore; close(): Awaitable<void> };

export const T0 = Date.UTC(2026, 0, 1);
export const MINUTE = 60_000;

export const CONTRACT: WatchTarget = { query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' } };
export const PIPE: WatchTarget = { query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530' } };
export const ONE_ORDER: WatchTarget = { query: { resource: 'order', filter: 'SAP_ID', value: '4500012345' }, sapId: '4500012345' };

export const GROUP = -1001234567890;
export const PRIVATE = 42;

/** A watch of `target` in `chatId`, made at T0 and first polled a minute later, unless told otherwise. */
export const newWatch = (chatId: number, target: WatchTarget, more: Partial<NewWatch> = {}): NewWatch => ({
  chatId,
  target,
  createdBy: 7,
  locale: 'ru',
  now: T0,
  limitPerChat: 50,
  firstPollAt: T0 + MINUTE,
  ...more,
});

/** The store of the test running, opened before and closed after each test. */
export const useStore = (open: OpenWatchStore): (() => WatchStore) => {
  let opened: OpenedWatchStore | undefined;
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('the store is used outside a test');
    return opened.store;
  };
};

/** Adds a watch that must be new; returns it. */
export const added = async (store: WatchStore, watch: NewWatch) => {
  const result = await store.add(watch);
  if (!result.ok || !result.created) throw new Error(`the watch was not created: ${JSON.stringify(result)}`);
  return result.watch;
};

export const LEASE = 5 * MINUTE;
export const DUE = T0 + MINUTE;
export const KEY = targetKey(CONTRACT);
export const CHANGES = '{"resource":"specification","changes":[],"foundAt":1}';

/** Claims the one due target for `owner` and records a poll of it; returns what recordPoll said. */
export const poll = async (store: WatchStore, owner: string, now: number, changes?: string) => {
  const [claimed] = await store.claimDue(owner, now, LEASE, 10);
  if (!claimed) throw new Error('nothing was due');
  return store.recordPoll(claimed.key, owner, { snapshot: `snapshot at ${now}`, nextPollAt: now + MINUTE, now, ...(changes !== undefined && { changes }) });
};

/** A notification that must be a watch's changes (not a digest's message). */
export const asChange = (notification: Notification | undefined): Extract<Notification, { kind: 'change' }> => {
  if (notification?.kind !== 'change') throw new Error(`not a change notification: ${JSON.stringify(notification)}`);
  return notification;
};
