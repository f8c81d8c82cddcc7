import { describe, expect, it } from 'vitest';
import type { Locale } from '../../src/i18n.ts';
import { cacheSettings } from '../../src/store/settings-cache.ts';
import type { SettingsStore, UserSettings } from '../../src/store/store.ts';

/** A store in a Map that counts its reads; `gate` holds reads back until released. */
const countingStore = () => {
  const users = new Map<number, UserSettings>();
  const chats = new Map<number, Locale>();
  const zones = new Map<number, string>();
  const reads = { count: 0, zones: 0 };
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
    chatTimeZone: (id) => {
      reads.zones += 1;
      return zones.get(id);
    },
    setChatTimeZone: (id, zone) => void zones.set(id, zone),
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
