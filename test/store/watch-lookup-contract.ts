import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/store/target-key.ts';
import { added, CHANGES, CONTRACT, DUE, GROUP, KEY, newWatch, PIPE, poll, PRIVATE, useStore, type OpenWatchStore } from './watch-contract-support.ts';

// The WatchStore contract for what every update asks (is anything paused to resume?) and every
// results message (does the chat watch this?): each answer is asked once before a change, so that
// a store keeping answers in memory is held to forget them on each change.

const OLD = -4001234;
const NEW = -1009876543210;

export const describeWatchLookupContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: a chat's watches asked about on every update`, () => {
    const store = useStore(open);

    it('finds a watch once added, and not once removed', async () => {
      expect(await store().find(GROUP, KEY)).toBeUndefined();
      expect(await store().resumeChat(GROUP)).toBe(false);
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().find(GROUP, KEY)).toEqual(watch);
      expect(await store().find(GROUP, targetKey(PIPE))).toBeUndefined();
      expect(await store().remove(GROUP, watch.id)).toBe(true);
      expect(await store().find(GROUP, KEY)).toBeUndefined();
    });

    it('resumes a paused chat once, and a chat paused again once more', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().resumeChat(GROUP)).toBe(false);
      await store().pauseChat(GROUP, DUE);
      expect(await store().resumeChat(GROUP)).toBe(true);
      expect(await store().resumeChat(GROUP)).toBe(false);
      await store().pauseChat(GROUP, DUE);
      expect(await store().resumeChat(PRIVATE)).toBe(false);
      expect(await store().resumeChat(GROUP)).toBe(true);
    });

    it('reads a found watch as it is now, its last change included', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      expect((await store().find(GROUP, KEY))?.lastChangeAt).toBeUndefined();
      await poll(store(), 'a', DUE, CHANGES);
      expect((await store().find(GROUP, KEY))?.lastChangeAt).toBe(DUE);
    });

    it('finds a moved chat’s watches under its new id only, paused ones still resumed', async () => {
      await added(store(), newWatch(OLD, CONTRACT));
      await store().pauseChat(OLD, DUE);
      expect(await store().find(NEW, KEY)).toBeUndefined();
      expect(await store().resumeChat(NEW)).toBe(false);
      expect(await store().find(OLD, KEY)).toMatchObject({ chatId: OLD });
      await store().moveChat(OLD, NEW);
      expect(await store().find(OLD, KEY)).toBeUndefined();
      expect(await store().resumeChat(OLD)).toBe(false);
      expect(await store().find(NEW, KEY)).toMatchObject({ chatId: NEW });
      expect(await store().resumeChat(NEW)).toBe(true);
    });

    it('finds nothing of a removed chat, and has nothing of it to resume', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await store().pauseChat(GROUP, DUE);
      expect(await store().find(GROUP, KEY)).toBeDefined();
      await store().removeChat(GROUP);
      expect(await store().find(GROUP, KEY)).toBeUndefined();
      expect(await store().resumeChat(GROUP)).toBe(false);
      await added(store(), newWatch(GROUP, PIPE));
      expect(await store().find(GROUP, targetKey(PIPE))).toBeDefined();
    });
  });
};
