import { describe, expect, it } from 'vitest';
import type { Locale } from '../../src/i18n.ts';
import { cacheSettings, createLru } from '../../src/store/settings-cache.ts';
import type { SettingsStore, UserSettings } from '../../src/store/store.ts';

/** A store in a Map that counts its reads; `gate` holds reads back until released. */
const countingStore = () => {
  const users = new Map<number, UserSettings>();
  const chats = new Map<number, Locale>();
  const reads = { count: 0 };
  let gate: Promise<void> | undefined;
  const store: SettingsStore = {
    async user(id) {
      reads.count += 1;
      const seen = { ...users.get(id) };
      await gate;
      return seen;
    },
    setUserLocale: (id, locale) => void users.set(id, { ...users.get(id), locale }),
    setUserPageSize: (id, pageSize) => void users.set(id, { ...users.get(id), pageSize }),
    chatLocale: (id) => {
      reads.count += 1;
      return chats.get(id);
    },
    setChatLocale: (id, locale) => void chats.set(id, locale),
  };
  const hold = () => {
    let release = () => {};
    gate = new Promise((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release();
    };
  };
  return { store, users, chats, reads, hold };
};

describe('the LRU', () => {
  it('forgets the least recently used entry past its capacity', () => {
    const lru = createLru<number, string>(2);
    lru.set(1, 'a');
    lru.set(2, 'b');
    expect(lru.get(1)).toBe('a');
    lru.set(3, 'c');
    expect([lru.peek(1), lru.peek(2), lru.peek(3), lru.size]).toEqual(['a', undefined, 'c', 2]);
  });

  it('keeps the order of a reference model over many uses, deletes and clears at capacity', () => {
    const capacity = 50;
    const lru = createLru<number, number>(capacity);
    const model: number[] = [];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let step = 0; step < 20_000; step++) {
      const key = random(120);
      const op = random(100);
      if (op < 50) {
        lru.set(key, step);
        if (model.includes(key)) model.splice(model.indexOf(key), 1);
        model.push(key);
        if (model.length > capacity) model.shift();
      } else if (op < 90) {
        const found = lru.get(key) !== undefined;
        expect(found).toBe(model.includes(key));
        if (found) model.push(...model.splice(model.indexOf(key), 1));
      } else if (op < 99) {
        lru.delete(key);
        if (model.includes(key)) model.splice(model.indexOf(key), 1);
      } else {
        lru.clear();
        model.length = 0;
      }
      expect(lru.size).toBe(model.length);
    }
    expect(model.every((key) => lru.peek(key) !== undefined)).toBe(true);
  });
});

describe('the settings cache', () => {
  it('reads each user and chat once, "nothing saved" included, and writes through', async () => {
    const backing = countingStore();
    const { settings } = cacheSettings(backing.store);
    expect(await settings.user(1)).toEqual({});
    expect(await settings.user(1)).toEqual({});
    expect(await settings.chatLocale(-100)).toBeUndefined();
    expect(await settings.chatLocale(-100)).toBeUndefined();
    expect(backing.reads.count).toBe(2);
    await settings.setUserLocale(1, 'en');
    await settings.setUserPageSize(1, 20);
    await settings.setChatLocale(-100, 'ru');
    expect(await settings.user(1)).toEqual({ locale: 'en', pageSize: 20 });
    expect(await settings.chatLocale(-100)).toBe('ru');
    expect(backing.reads.count).toBe(2);
  });

  it('stays within its capacity', async () => {
    const cache = cacheSettings(countingStore().store, { capacity: 100 });
    for (let id = 1; id <= 1_000; id += 1) await cache.settings.user(id);
    expect(cache.size).toBe(100);
  });

  it('reads again what another process changed, and reads through while suspended', async () => {
    const backing = countingStore();
    const cache = cacheSettings(backing.store);
    await cache.settings.user(1);
    backing.users.set(1, { locale: 'en' });
    expect(await cache.settings.user(1)).toEqual({});
    cache.forget('user', 1);
    expect(await cache.settings.user(1)).toEqual({ locale: 'en' });
    cache.suspend();
    backing.users.set(1, { locale: 'ru' });
    expect(await cache.settings.user(1)).toEqual({ locale: 'ru' });
    backing.users.set(1, { locale: 'en' });
    expect(await cache.settings.user(1)).toEqual({ locale: 'en' });
    cache.resume();
    const before = backing.reads.count;
    await cache.settings.user(1);
    await cache.settings.user(1);
    expect(backing.reads.count).toBe(before + 1);
  });

  it('keeps nothing from a read that was under way when its entry was forgotten', async () => {
    const backing = countingStore();
    const cache = cacheSettings(backing.store);
    const release = backing.hold();
    const reading = cache.settings.user(1);
    backing.users.set(1, { locale: 'en' });
    cache.forget('user', 1);
    release();
    expect(await reading).toEqual({});
    expect(await cache.settings.user(1)).toEqual({ locale: 'en' });
  });
});
