import { describe, expect, it } from 'vitest';
import { cacheWatches, type CachableWatchStore } from '../../src/store/watch-cache.ts';
import type { AddWatchResult, Watch } from '../../src/store/watch-store.ts';
import { CONTRACT, GROUP, KEY, newWatch, PRIVATE, T0 } from './watch-contract-support.ts';

// The cache in front of a store kept in a Map, which counts every call that reaches it.

const OTHER_KEY = 'not-watched-key';

const watchOf = (chatId: number, id = 1): Watch => ({ id, chatId, targetKey: KEY, target: CONTRACT, createdBy: 7, locale: 'ru', createdAt: T0 });

/** Each chat's watches by target key, and its paused flag; `gate` holds record reads back until released. */
const countingStore = () => {
  const chats = new Map<number, { watches: Map<string, Watch>; paused: boolean }>();
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  let failNext = false;
  const chat = (chatId: number) => chats.get(chatId) ?? { watches: new Map<string, Watch>(), paused: false };
  const write = <R>(name: string, run: () => R): R => {
    calls.push(name);
    if (failNext) {
      failNext = false;
      throw new Error('the store failed');
    }
    return run();
  };
  const unused = () => {
    throw new Error('not used by the cache');
  };
  const store: CachableWatchStore = {
    async chatWatches(chatId) {
      calls.push('chatWatches');
      const { watches, paused } = chat(chatId);
      const seen = { targetKeys: [...watches.keys()], paused };
      await gate;
      return seen;
    },
    find(chatId, key) {
      calls.push('find');
      return chat(chatId).watches.get(key);
    },
    resumeChat: (chatId) =>
      write('resumeChat', () => {
        const { watches, paused } = chat(chatId);
        chats.set(chatId, { watches, paused: false });
        return paused && watches.size > 0;
      }),
    add: (watch) =>
      write('add', (): AddWatchResult => {
        const current = chat(watch.chatId);
        const existing = current.watches.get(KEY);
        if (existing) return { ok: true, watch: existing, created: false };
        if (current.watches.size >= watch.limitPerChat) return { ok: false, reason: 'limit' };
        const created = watchOf(watch.chatId);
        chats.set(watch.chatId, { ...current, watches: new Map([[KEY, created]]) });
        return { ok: true, watch: created, created: true };
      }),
    remove: (chatId, watchId) =>
      write('remove', () => {
        const found = [...chat(chatId).watches.values()].find((watch) => watch.id === watchId);
        if (found) chat(chatId).watches.delete(found.targetKey);
        return found !== undefined;
      }),
    pauseChat: (chatId) => write('pauseChat', () => void chats.set(chatId, { ...chat(chatId), paused: chat(chatId).watches.size > 0 })),
    moveChat: (from, to) =>
      write('moveChat', () => {
        chats.set(to, chat(from));
        chats.delete(from);
      }),
    removeChat: (chatId) => write('removeChat', () => void chats.delete(chatId)),
    removeDigest: (chatId) => write('removeDigest', () => (chats.delete(chatId) ? 0 : undefined)),
    setOptions: unused,
    snooze: unused,
    resume: unused,
    wakeSnoozed: unused,
    digest: unused,
    setDigest: unused,
    rescheduleDigest: unused,
    claimDigests: unused,
    prepareDigest: unused,
    skipDigest: unused,
    releaseDigest: unused,
    list: unused,
    watchers: unused,
    counts: unused,
    claimDue: unused,
    release: unused,
    recordPoll: unused,
    claimNotifications: unused,
    renewNotifications: unused,
    delivered: unused,
    retryLater: unused,
    postpone: unused,
  };
  const hold = () => {
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release();
    };
  };
  /** Changed behind the cache's back, as another replica would. */
  const watchBehind = (chatId: number, paused = false) => chats.set(chatId, { watches: new Map([[KEY, watchOf(chatId)]]), paused });
  const failNextWrite = () => {
    failNext = true;
  };
  return { store, calls, hold, watchBehind, failNextWrite };
};

/** The calls made by `act`. */
const callsOf = async (backing: { calls: string[] }, act: () => unknown): Promise<string[]> => {
  const before = backing.calls.length;
  await act();
  return backing.calls.slice(before);
};

describe('the watch cache', () => {
  it('reads a chat once, then answers "not watched" and "nothing paused" without the store', async () => {
    const backing = countingStore();
    const { watches } = cacheWatches(backing.store);
    expect(await watches.resumeChat(GROUP)).toBe(false);
    expect(backing.calls).toEqual(['chatWatches']);
    const hits = await callsOf(backing, async () => {
      for (let i = 0; i < 3; i += 1) {
        expect(await watches.resumeChat(GROUP)).toBe(false);
        expect(await watches.find(GROUP, KEY)).toBeUndefined();
      }
    });
    expect(hits).toEqual([]);
  });

  it('reads a watch the chat has from the store: it changes with each poll', async () => {
    const backing = countingStore();
    backing.watchBehind(GROUP);
    const { watches } = cacheWatches(backing.store);
    expect(await watches.find(GROUP, KEY)).toEqual(watchOf(GROUP));
    expect(await callsOf(backing, async () => expect(await watches.find(GROUP, KEY)).toEqual(watchOf(GROUP)))).toEqual(['find']);
    expect(await callsOf(backing, async () => expect(await watches.find(GROUP, OTHER_KEY)).toBeUndefined())).toEqual([]);
  });

  it('resumes a paused chat in the store, and reads the chat again after', async () => {
    const backing = countingStore();
    backing.watchBehind(GROUP, true);
    const { watches } = cacheWatches(backing.store);
    expect(await callsOf(backing, async () => expect(await watches.resumeChat(GROUP)).toBe(true))).toEqual(['chatWatches', 'resumeChat']);
    expect(await callsOf(backing, async () => expect(await watches.resumeChat(GROUP)).toBe(false))).toEqual(['chatWatches']);
    expect(await callsOf(backing, async () => expect(await watches.resumeChat(GROUP)).toBe(false))).toEqual([]);
  });

  it('forgets a chat on each write that changed its watches, and only then', async () => {
    const backing = countingStore();
    const { watches } = cacheWatches(backing.store);
    /** The calls of a find in each chat after `write`: a read of the chat's record when it was forgotten. */
    const afterWrite = async (write: () => unknown) => {
      await watches.find(GROUP, OTHER_KEY);
      await watches.find(PRIVATE, OTHER_KEY);
      await write();
      return [await callsOf(backing, () => watches.find(GROUP, OTHER_KEY)), await callsOf(backing, () => watches.find(PRIVATE, OTHER_KEY))];
    };
    expect(await afterWrite(() => watches.add(newWatch(GROUP, CONTRACT)))).toEqual([['chatWatches'], []]);
    expect(await afterWrite(() => watches.add(newWatch(GROUP, CONTRACT)))).toEqual([[], []]);
    expect(await afterWrite(() => watches.add(newWatch(PRIVATE, CONTRACT, { limitPerChat: 0 })))).toEqual([[], []]);
    expect(await afterWrite(() => watches.remove(GROUP, 99))).toEqual([[], []]);
    expect(await afterWrite(() => watches.pauseChat(GROUP, T0))).toEqual([['chatWatches'], []]);
    expect(await afterWrite(() => watches.moveChat(GROUP, PRIVATE))).toEqual([['chatWatches'], ['chatWatches']]);
    expect(await afterWrite(() => watches.remove(PRIVATE, 1))).toEqual([[], ['chatWatches']]);
    expect(await afterWrite(() => watches.removeChat(GROUP))).toEqual([['chatWatches'], []]);
    backing.failNextWrite();
    expect(await afterWrite(() => expect(async () => watches.pauseChat(PRIVATE, T0)).rejects.toThrow('the store failed'))).toEqual([[], ['chatWatches']]);
  });

  it('sees what another process changed once told, and reads through while suspended', async () => {
    const backing = countingStore();
    const cache = cacheWatches(backing.store);
    expect(await cache.watches.find(GROUP, KEY)).toBeUndefined();
    backing.watchBehind(GROUP, true);
    expect(await cache.watches.find(GROUP, KEY)).toBeUndefined();
    cache.forget(GROUP);
    expect(await cache.watches.find(GROUP, KEY)).toEqual(watchOf(GROUP));
    cache.suspend();
    expect(cache.size).toBe(0);
    expect(await callsOf(backing, async () => expect(await cache.watches.resumeChat(GROUP)).toBe(true))).toEqual(['resumeChat']);
    expect(await callsOf(backing, async () => expect(await cache.watches.resumeChat(GROUP)).toBe(false))).toEqual(['resumeChat']);
    expect(await callsOf(backing, () => cache.watches.find(PRIVATE, KEY))).toEqual(['find']);
    cache.resume();
    expect(await callsOf(backing, async () => {
      await cache.watches.resumeChat(GROUP);
      await cache.watches.resumeChat(GROUP);
    })).toEqual(['chatWatches']);
  });

  it('keeps nothing from a read that was under way when its chat was forgotten', async () => {
    const backing = countingStore();
    const cache = cacheWatches(backing.store);
    const release = backing.hold();
    const reading = cache.watches.find(GROUP, KEY);
    backing.watchBehind(GROUP);
    cache.forget(GROUP);
    release();
    expect(await reading).toBeUndefined();
    expect(await cache.watches.find(GROUP, KEY)).toEqual(watchOf(GROUP));
  });

  it('stays within its capacity', async () => {
    const cache = cacheWatches(countingStore().store, { capacity: 100 });
    for (let chatId = 1; chatId <= 1_000; chatId += 1) await cache.watches.resumeChat(chatId);
    expect(cache.size).toBe(100);
  });

  it('answers at once in front of a store that does', () => {
    const backing = countingStore();
    const sync: CachableWatchStore = { ...backing.store, chatWatches: () => ({ targetKeys: [KEY], paused: false }) };
    const { watches } = cacheWatches(sync);
    expect(watches.resumeChat(GROUP)).toBe(false);
    expect(watches.find(GROUP, OTHER_KEY)).toBeUndefined();
    expect(watches.find(GROUP, KEY)).toBeUndefined();
    expect(watches.add(newWatch(GROUP, CONTRACT))).toMatchObject({ ok: true, created: true });
  });
});
