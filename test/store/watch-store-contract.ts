import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/store/target-key.ts';
import { describeWatchLookupContract } from './watch-lookup-contract.ts';
import { describeWatchMoveContract } from './watch-move-contract.ts';
import { describeWatchPollContract } from './watch-poll-contract.ts';
import { describeWatchSendContract } from './watch-send-contract.ts';
import { describeWatchDigestContract } from './watch-digest-contract.ts';
import { added, CONTRACT, GROUP, MINUTE, newWatch, ONE_ORDER, PIPE, PRIVATE, T0, useStore, type OpenWatchStore } from './watch-contract-support.ts';

// What every WatchStore must do, whatever keeps it: run by each backend's test with a fresh,
// empty store per test. Times are passed in, so no clock is needed. The polling and sending
// parts are in watch-poll-contract.ts and watch-send-contract.ts, a chat's move to a new id in
// watch-move-contract.ts, what every update asks in watch-lookup-contract.ts.

export const describeWatchStoreContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: the chats' watches`, () => {
    const store = useStore(open);

    it('adds a watch and finds it by its target key', async () => {
      const result = await store().add(newWatch(GROUP, CONTRACT, { threadId: 12, locale: 'en' }));
      expect(result).toEqual({
        ok: true,
        created: true,
        watch: { id: expect.any(Number), chatId: GROUP, threadId: 12, targetKey: targetKey(CONTRACT), target: CONTRACT, createdBy: 7, locale: 'en', createdAt: T0 },
      });
      expect(await store().find(GROUP, targetKey(CONTRACT))).toEqual(result.ok && result.watch);
      expect(await store().find(PRIVATE, targetKey(CONTRACT))).toBeUndefined();
      expect(await store().list(GROUP)).toEqual([result.ok && result.watch]);
    });

    it('returns the chat’s watch of the same target as it is, even at the limit', async () => {
      const first = await added(store(), newWatch(GROUP, CONTRACT, { limitPerChat: 1, createdBy: 7, locale: 'ru' }));
      const again = await store().add(newWatch(GROUP, CONTRACT, { limitPerChat: 1, createdBy: 8, locale: 'en', now: T0 + MINUTE }));
      expect(again).toEqual({ ok: true, created: false, watch: first });
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
    });

    it('refuses a new watch past the limit of the chat, not of other chats', async () => {
      await added(store(), newWatch(GROUP, CONTRACT, { limitPerChat: 2 }));
      await added(store(), newWatch(GROUP, PIPE, { limitPerChat: 2 }));
      expect(await store().add(newWatch(GROUP, ONE_ORDER, { limitPerChat: 2 }))).toEqual({ ok: false, reason: 'limit' });
      await added(store(), newWatch(PRIVATE, ONE_ORDER, { limitPerChat: 2 }));
      expect((await store().list(GROUP)).map((watch) => watch.target)).toEqual([CONTRACT, PIPE]);
    });

    it('keeps one target for the same query watched in two chats', async () => {
      const inGroup = await added(store(), newWatch(GROUP, CONTRACT));
      const inPrivate = await added(store(), newWatch(PRIVATE, CONTRACT, { createdBy: PRIVATE }));
      expect(inPrivate.targetKey).toBe(inGroup.targetKey);
      expect(await store().counts()).toEqual({ watches: 2, targets: 1, pending: 0 });
      expect(await store().watchers(targetKey(CONTRACT))).toEqual([inGroup, inPrivate]);
      expect(await store().watchers(targetKey(PIPE))).toEqual([]);
    });

    it('tells a watch of one record from a watch of its whole query', async () => {
      const { sapId: _, ...wholeQuery } = ONE_ORDER;
      await added(store(), newWatch(GROUP, ONE_ORDER));
      await added(store(), newWatch(GROUP, wholeQuery));
      expect(targetKey(wholeQuery)).not.toBe(targetKey(ONE_ORDER));
      expect(await store().counts()).toEqual({ watches: 2, targets: 2, pending: 0 });
    });

    it('lists a chat’s watches oldest first', async () => {
      await added(store(), newWatch(GROUP, PIPE, { now: T0 + 2 * MINUTE }));
      await added(store(), newWatch(GROUP, CONTRACT, { now: T0 }));
      await added(store(), newWatch(PRIVATE, ONE_ORDER));
      expect((await store().list(GROUP)).map((watch) => watch.target)).toEqual([CONTRACT, PIPE]);
      expect(await store().list(-1)).toEqual([]);
    });

    it('removes only the chat’s own watch', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().remove(PRIVATE, watch.id)).toBe(false);
      expect(await store().remove(GROUP, watch.id + 1000)).toBe(false);
      expect(await store().list(GROUP)).toEqual([watch]);
      expect(await store().remove(GROUP, watch.id)).toBe(true);
      expect(await store().remove(GROUP, watch.id)).toBe(false);
      expect(await store().list(GROUP)).toEqual([]);
    });

    it('forgets a target with its last watch, and keeps it while another chat watches it', async () => {
      const inGroup = await added(store(), newWatch(GROUP, CONTRACT));
      const inPrivate = await added(store(), newWatch(PRIVATE, CONTRACT));
      await store().remove(GROUP, inGroup.id);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
      await store().remove(PRIVATE, inPrivate.id);
      expect(await store().counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
    });

    it('never gives a removed watch’s id to a new one', async () => {
      const first = await added(store(), newWatch(GROUP, CONTRACT));
      await store().remove(GROUP, first.id);
      const second = await added(store(), newWatch(GROUP, PIPE));
      expect(second.id).not.toBe(first.id);
      expect(await store().remove(GROUP, first.id)).toBe(false);
    });

    it('removes a chat: its watches go, and the targets nobody else watches', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await added(store(), newWatch(GROUP, PIPE));
      const other = await added(store(), newWatch(PRIVATE, CONTRACT));
      await store().removeChat(GROUP);
      expect(await store().list(GROUP)).toEqual([]);
      expect(await store().list(PRIVATE)).toEqual([other]);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
      // Again: nothing left to remove, nothing removed.
      await store().removeChat(GROUP);
      expect(await store().counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
    });
  });

  describeWatchPollContract(name, open);
  describeWatchSendContract(name, open);
  describeWatchMoveContract(name, open);
  describeWatchLookupContract(name, open);
  describeWatchDigestContract(name, open);
};
export type { OpenWatchStore } from './watch-contract-support.ts';
