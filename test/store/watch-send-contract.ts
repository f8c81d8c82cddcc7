import { describe, expect, it } from 'vitest';
import { added, CHANGES, CONTRACT, DUE, GROUP, LEASE, MINUTE, newWatch, PIPE, poll, PRIVATE, T0, useStore, type OpenWatchStore, asChange } from './watch-contract-support.ts';

// The sending part of the WatchStore contract: pending notifications claimed with leases,
// delivered, retried or postponed, and dropped with their watch or their chat.

export const describeWatchSendContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: sending the notifications`, () => {
    const store = useStore(open);

    /** Two chats watching the contract, and one poll that found changes: two notifications due at DUE. */
    const withPending = async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await added(store(), newWatch(PRIVATE, CONTRACT));
      await poll(store(), 'a', DUE, CHANGES);
    };

    it('lets one owner hold a notification until its lease expires', async () => {
      await withPending();
      const claimed = await store().claimNotifications('s1', DUE, LEASE, 10);
      expect(claimed.map((notification) => notification.chatId)).toEqual([GROUP, PRIVATE]);
      expect(await store().claimNotifications('s2', DUE + LEASE - 1, LEASE, 10)).toEqual([]);
      expect(await store().claimNotifications('s2', DUE + LEASE, LEASE, 10)).toEqual(claimed);
    });

    it('renews the lease of what an owner still holds, and of nothing it gave back or lost', async () => {
      await withPending();
      const [group, other] = await store().claimNotifications('s1', DUE, LEASE, 10);
      const ids = [group!.id, other!.id];
      const sorted = (renewed: number[]) => [...renewed].sort((a, b) => a - b);
      expect(sorted(await store().renewNotifications('s1', ids, DUE + 2 * LEASE))).toEqual(sorted(ids));
      // Held past the first lease, up to the renewed one.
      expect(await store().claimNotifications('s2', DUE + 2 * LEASE - 1, LEASE, 10)).toEqual([]);
      // Given back: no longer renewed. Held by another: not renewed for this owner.
      await store().postpone(group!.id, DUE + 2 * LEASE);
      expect(await store().renewNotifications('s1', ids, DUE + 3 * LEASE)).toEqual([other!.id]);
      expect(await store().renewNotifications('s2', ids, DUE + 3 * LEASE)).toEqual([]);
      expect(await store().renewNotifications('s1', [], DUE + 3 * LEASE)).toEqual([]);
      expect((await store().claimNotifications('s2', DUE + 2 * LEASE, 10 * LEASE, 10)).map((notification) => notification.id)).toEqual([group!.id]);
      expect(await store().claimNotifications('s2', DUE + 3 * LEASE - 1, LEASE, 10)).toEqual([]);
      // Not renewed any more: free once the last renewal ends, and lost for its old owner.
      expect((await store().claimNotifications('s2', DUE + 3 * LEASE, LEASE, 10)).map((notification) => notification.id)).toEqual([other!.id]);
      expect(await store().renewNotifications('s1', ids, DUE + 4 * LEASE)).toEqual([]);
    });

    it('claims the oldest first, at most as many as asked, none before they are due', async () => {
      await withPending();
      expect(await store().claimNotifications('s', DUE - 1, LEASE, 10)).toEqual([]);
      expect((await store().claimNotifications('s', DUE, LEASE, 1)).map((notification) => notification.chatId)).toEqual([GROUP]);
      expect((await store().claimNotifications('s', DUE, LEASE, 1)).map((notification) => notification.chatId)).toEqual([PRIVATE]);
    });

    it('never yields a notification twice in a graceful run', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await added(store(), newWatch(PRIVATE, CONTRACT));
      const seen: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        const now = DUE + round * MINUTE;
        await poll(store(), 'a', now, CHANGES);
        for (let tick = 0; tick < 3; tick += 1) {
          for (const notification of await store().claimNotifications('s', now, LEASE, 10)) {
            seen.push(notification.id);
            await store().delivered(notification.id);
          }
        }
      }
      expect(seen).toHaveLength(6);
      expect(new Set(seen).size).toBe(6);
      expect(await store().counts()).toEqual({ watches: 2, targets: 1, pending: 0 });
    });

    it('sends a watch’s notifications in the order they were found', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await poll(store(), 'a', DUE, '{"first":1}');
      await poll(store(), 'a', DUE + MINUTE, '{"second":2}');
      const [first] = await store().claimNotifications('s', DUE + MINUTE, LEASE, 10);
      expect(asChange(first).changes).toBe('{"first":1}');
      // The second waits while the first is held, and while it waits for a retry.
      expect(await store().claimNotifications('s', DUE + MINUTE, LEASE, 10)).toEqual([]);
      await store().retryLater(first?.id ?? 0, DUE + 10 * MINUTE);
      expect(await store().claimNotifications('s', DUE + 2 * MINUTE, LEASE, 10)).toEqual([]);
      const retried = await store().claimNotifications('s', DUE + 10 * MINUTE, LEASE, 10);
      expect(retried.map((notification) => [asChange(notification).changes, notification.attempts])).toEqual([['{"first":1}', 1]]);
      await store().delivered(first?.id ?? 0);
      expect((await store().claimNotifications('s', DUE + 10 * MINUTE, LEASE, 10)).map((notification) => asChange(notification).changes)).toEqual(['{"second":2}']);
    });

    it('retries later: one more attempt, due at the time given, free for any owner', async () => {
      await withPending();
      const [first] = await store().claimNotifications('s1', DUE, LEASE, 1);
      await store().retryLater(first?.id ?? 0, DUE + 30_000);
      expect((await store().claimNotifications('s2', DUE + 29_999, LEASE, 10)).map((notification) => notification.chatId)).toEqual([PRIVATE]);
      expect(await store().claimNotifications('s2', DUE + 30_000, LEASE, 10)).toEqual([{ ...first, attempts: 1 }]);
    });

    it('postpones without counting an attempt: due at the time given, free for any owner', async () => {
      await withPending();
      const [first] = await store().claimNotifications('s1', DUE, LEASE, 1);
      await store().postpone(first?.id ?? 0, DUE + 30_000);
      expect((await store().claimNotifications('s2', DUE + 29_999, LEASE, 10)).map((notification) => notification.chatId)).toEqual([PRIVATE]);
      expect(await store().claimNotifications('s2', DUE + 30_000, LEASE, 10)).toEqual([{ ...first, attempts: 0 }]);
    });

    it('forgets a delivered notification', async () => {
      await withPending();
      const claimed = await store().claimNotifications('s', DUE, LEASE, 10);
      await store().delivered(claimed[0]?.id ?? 0);
      expect(await store().counts()).toEqual({ watches: 2, targets: 1, pending: 1 });
      expect(await store().claimNotifications('s', DUE + LEASE, LEASE, 10)).toEqual(claimed.slice(1));
    });

    it('drops a removed watch’s pending notifications', async () => {
      await withPending();
      const [inGroup] = await store().list(GROUP);
      await store().remove(GROUP, inGroup?.id ?? 0);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 1 });
      expect((await store().claimNotifications('s', DUE, LEASE, 10)).map((notification) => notification.chatId)).toEqual([PRIVATE]);
      await store().removeChat(PRIVATE);
      expect(await store().counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
    });

    it('pauses a chat: its pending notifications go, and it is told nothing until it resumes', async () => {
      await withPending();
      await store().pauseChat(PRIVATE, DUE + 1);
      expect(await store().counts()).toEqual({ watches: 2, targets: 1, pending: 1 });
      await poll(store(), 'a', DUE + MINUTE, CHANGES);
      const sent: number[] = [];
      for (let tick = 0; tick < 3; tick += 1) {
        for (const notification of await store().claimNotifications('s', DUE + MINUTE, LEASE, 10)) {
          sent.push(notification.chatId);
          await store().delivered(notification.id);
        }
      }
      expect(sent).toEqual([GROUP, GROUP]);
      expect((await store().list(PRIVATE))[0]?.lastChangeAt).toBe(DUE);
      expect((await store().list(GROUP))[0]?.lastChangeAt).toBe(DUE + MINUTE);
    });

    it('stops polling a target whose only watches are paused, and polls it again on resume', async () => {
      await added(store(), newWatch(PRIVATE, CONTRACT));
      await added(store(), newWatch(GROUP, PIPE));
      expect(await store().resumeChat(PRIVATE)).toBe(false);
      await store().pauseChat(PRIVATE, T0);
      await store().pauseChat(PRIVATE, T0 + 1);
      expect((await store().claimDue('a', DUE, LEASE, 10)).map((claimed) => claimed.target)).toEqual([PIPE]);
      expect(await store().resumeChat(PRIVATE)).toBe(true);
      expect(await store().resumeChat(PRIVATE)).toBe(false);
      expect((await store().claimDue('a', DUE, LEASE, 10)).map((claimed) => claimed.target)).toEqual([CONTRACT]);
    });
  });
};
