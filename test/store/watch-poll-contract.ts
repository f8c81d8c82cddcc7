import { describe, expect, it } from 'vitest';
import { added, CHANGES, CONTRACT, DUE, GROUP, KEY, LEASE, MINUTE, newWatch, PIPE, poll, PRIVATE, useStore, type OpenWatchStore } from './watch-contract-support.ts';

// The polling part of the WatchStore contract: targets claimed with leases, polls recorded with
// their notifications. Sending them is in watch-send-contract.ts.

export const describeWatchPollContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: polling the watched targets`, () => {
    const store = useStore(open);

    it('claims a new target first at its first poll time, with no snapshot yet', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().claimDue('a', DUE - 1, LEASE, 10)).toEqual([]);
      expect(await store().claimDue('a', DUE, LEASE, 10)).toEqual([{ key: KEY, target: CONTRACT, nextPollAt: DUE }]);
    });

    it('starts a new target from the snapshot taken when it was watched', async () => {
      await added(store(), newWatch(GROUP, CONTRACT, { snapshot: 'when watched' }));
      expect(await store().claimDue('a', DUE, LEASE, 10)).toEqual([{ key: KEY, target: CONTRACT, snapshot: 'when watched', nextPollAt: DUE }]);
    });

    it('keeps the snapshot of a target already watched', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await poll(store(), 'a', DUE);
      await added(store(), newWatch(PRIVATE, CONTRACT, { snapshot: 'when watched again', now: DUE + 1 }));
      expect((await store().claimDue('a', DUE + MINUTE, LEASE, 10))[0]?.snapshot).toBe(`snapshot at ${DUE}`);
    });

    it('never lets two owners hold the same target', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().claimDue('a', DUE, LEASE, 10)).toHaveLength(1);
      expect(await store().claimDue('b', DUE, LEASE, 10)).toEqual([]);
      expect(await store().claimDue('a', DUE + LEASE - 1, LEASE, 10)).toEqual([]);
    });

    it('lets another owner take over an expired lease', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await store().claimDue('a', DUE, LEASE, 10);
      expect(await store().claimDue('b', DUE + LEASE, LEASE, 10)).toEqual([{ key: KEY, target: CONTRACT, nextPollAt: DUE }]);
    });

    it('claims the longest due first, at most as many as asked', async () => {
      await added(store(), newWatch(GROUP, CONTRACT, { firstPollAt: DUE + 2 }));
      await added(store(), newWatch(GROUP, PIPE, { firstPollAt: DUE }));
      const first = await store().claimDue('a', DUE + 5, LEASE, 1);
      expect(first.map((claimed) => claimed.target)).toEqual([PIPE]);
      expect((await store().claimDue('a', DUE + 5, LEASE, 1)).map((claimed) => claimed.target)).toEqual([CONTRACT]);
      expect(await store().claimDue('a', DUE + 5, LEASE, 1)).toEqual([]);
    });

    it('gives a released target back, due at the time given, keeping its snapshot', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect(await poll(store(), 'a', DUE)).toBe(true);
      await store().claimDue('a', DUE + MINUTE, LEASE, 10);
      await store().release(KEY, 'b', DUE + 2 * MINUTE);
      expect(await store().claimDue('b', DUE + 2 * MINUTE, LEASE, 10)).toEqual([]);
      await store().release(KEY, 'a', DUE + 3 * MINUTE);
      expect(await store().claimDue('b', DUE + 3 * MINUTE - 1, LEASE, 10)).toEqual([]);
      expect(await store().claimDue('b', DUE + 3 * MINUTE, LEASE, 10)).toEqual([
        { key: KEY, target: CONTRACT, snapshot: `snapshot at ${DUE}`, nextPollAt: DUE + 3 * MINUTE },
      ]);
    });

    it('records a poll: the snapshot the next claim returns, and the next poll time', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect(await poll(store(), 'a', DUE)).toBe(true);
      // The lease is given back with the poll: another owner may poll it when it is due.
      expect(await store().claimDue('b', DUE + MINUTE - 1, LEASE, 10)).toEqual([]);
      expect(await store().claimDue('b', DUE + MINUTE, LEASE, 10)).toEqual([
        { key: KEY, target: CONTRACT, snapshot: `snapshot at ${DUE}`, nextPollAt: DUE + MINUTE },
      ]);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
    });

    it('writes nothing for a poll whose lease was lost', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await store().claimDue('a', DUE, LEASE, 10);
      await store().claimDue('b', DUE + LEASE, LEASE, 10);
      const late = await store().recordPoll(KEY, 'a', { snapshot: 'late', nextPollAt: DUE + 99 * MINUTE, now: DUE + LEASE, changes: CHANGES });
      expect(late).toBe(false);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
      expect((await store().list(GROUP))[0]?.lastChangeAt).toBeUndefined();
      // b still holds it, and its poll is the one recorded.
      expect(await store().claimDue('c', DUE + LEASE, LEASE, 10)).toEqual([]);
      expect(await store().recordPoll(KEY, 'b', { snapshot: 'b', nextPollAt: DUE + LEASE, now: DUE + LEASE })).toBe(true);
      expect((await store().claimDue('c', DUE + LEASE, LEASE, 10))[0]?.snapshot).toBe('b');
    });

    it('queues one notification per active watch, in its chat, topic and language', async () => {
      const inGroup = await added(store(), newWatch(GROUP, CONTRACT, { threadId: 12, locale: 'en' }));
      const inPrivate = await added(store(), newWatch(PRIVATE, CONTRACT, { locale: 'ru' }));
      await added(store(), newWatch(PRIVATE, PIPE));
      expect(await poll(store(), 'a', DUE, CHANGES)).toBe(true);
      expect(await store().claimNotifications('s', DUE, LEASE, 10)).toEqual([
        { id: expect.any(Number), kind: 'change', watchId: inGroup.id, chatId: GROUP, threadId: 12, locale: 'en', target: CONTRACT, changes: CHANGES, attempts: 0, createdBy: 7 },
        { id: expect.any(Number), kind: 'change', watchId: inPrivate.id, chatId: PRIVATE, locale: 'ru', target: CONTRACT, changes: CHANGES, attempts: 0, createdBy: 7 },
      ]);
      expect((await store().list(GROUP))[0]?.lastChangeAt).toBe(DUE);
      expect((await store().list(PRIVATE)).map((watch) => watch.lastChangeAt)).toEqual([DUE, undefined]);
    });

    it('queues nothing for a poll that found no change', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await poll(store(), 'a', DUE);
      expect(await store().claimNotifications('s', DUE, LEASE, 10)).toEqual([]);
      expect((await store().list(GROUP))[0]?.lastChangeAt).toBeUndefined();
    });
  });
};
