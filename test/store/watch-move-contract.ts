import { describe, expect, it } from 'vitest';
import { added, CHANGES, CONTRACT, DUE, GROUP, KEY, LEASE, MINUTE, newWatch, PIPE, PRIVATE, useStore, type OpenWatchStore, asChange } from './watch-contract-support.ts';

// The WatchStore contract for a group that became a supergroup: Telegram gives the chat a new
// id, and its watches and pending notifications follow it there.

const OLD = -4001234;
const NEW = -1009876543210;

export const describeWatchMoveContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: moving a chat to its new id`, () => {
    const store = useStore(open);

    /** The contract polled at DUE with changes; the pipe is not due before DUE + 10 minutes. */
    const pollContract = async () => {
      const claimed = await store().claimDue('a', DUE, LEASE, 10);
      expect(claimed.map((target) => target.key)).toEqual([KEY]);
      await store().recordPoll(KEY, 'a', { snapshot: 's', nextPollAt: DUE + MINUTE, now: DUE, changes: CHANGES });
    };

    it('moves the watches and pending notifications, without their topics', async () => {
      const contract = await added(store(), newWatch(OLD, CONTRACT, { threadId: 3 }));
      const pipe = await added(store(), newWatch(OLD, PIPE, { firstPollAt: DUE + 10 * MINUTE }));
      const other = await added(store(), newWatch(PRIVATE, CONTRACT));
      await pollContract();
      await store().moveChat(OLD, NEW);
      expect(await store().list(OLD)).toEqual([]);
      const { threadId: _, ...unthreaded } = contract;
      expect(await store().list(NEW)).toEqual([
        { ...unthreaded, chatId: NEW, lastChangeAt: DUE },
        { ...pipe, chatId: NEW },
      ]);
      expect(await store().list(PRIVATE)).toEqual([{ ...other, lastChangeAt: DUE }]);
      expect(await store().counts()).toEqual({ watches: 3, targets: 2, pending: 2 });
      const pending = await store().claimNotifications('s', DUE, LEASE, 10);
      expect(pending.map(asChange).map(({ watchId, chatId, threadId }) => ({ watchId, chatId, threadId }))).toEqual([
        { watchId: contract.id, chatId: NEW, threadId: undefined },
        { watchId: other.id, chatId: PRIVATE, threadId: undefined },
      ]);
    });

    it('keeps the new chat’s own watch of a target, dropping the old one with its notifications', async () => {
      const kept = await added(store(), newWatch(NEW, CONTRACT, { locale: 'en' }));
      await added(store(), newWatch(OLD, CONTRACT));
      const pipe = await added(store(), newWatch(OLD, PIPE, { firstPollAt: DUE + 10 * MINUTE }));
      await pollContract();
      await store().moveChat(OLD, NEW);
      expect(await store().list(NEW)).toEqual([{ ...kept, lastChangeAt: DUE }, { ...pipe, chatId: NEW }]);
      expect(await store().counts()).toEqual({ watches: 2, targets: 2, pending: 1 });
      expect((await store().claimNotifications('s', DUE, LEASE, 10)).map(asChange).map(({ watchId, chatId }) => ({ watchId, chatId }))).toEqual([
        { watchId: kept.id, chatId: NEW },
      ]);
    });

    it('moves nothing of other chats, and nothing when the chat has no watches', async () => {
      const inGroup = await added(store(), newWatch(GROUP, CONTRACT));
      await store().moveChat(OLD, NEW);
      await store().moveChat(GROUP, GROUP);
      expect(await store().list(GROUP)).toEqual([inGroup]);
      expect(await store().list(NEW)).toEqual([]);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
    });
  });
};
