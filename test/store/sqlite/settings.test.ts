import { describe, expect, it } from 'vitest';
import type { Locale } from '../../../src/i18n.ts';
import type { PageSize } from '../../../src/query.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { useTempDirs, withRawDb } from '../support.ts';

const tempDir = useTempDirs();

describe('the sqlite settings store', () => {
  it('reads nothing saved as unset', () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    expect(store.settings.user(42)).toEqual({});
    expect(store.settings.chatLocale(-100)).toBeUndefined();
    store.close();
  });

  it('keeps locale and page size per user, and a locale per chat, each on its own', () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    const { settings } = store;
    settings.setUserLocale(1, 'en');
    settings.setUserPageSize(2, 5);
    settings.setChatLocale(-100, 'ru');
    expect(settings.user(1)).toEqual({ locale: 'en' });
    expect(settings.user(2)).toEqual({ pageSize: 5 });
    settings.setUserPageSize(1, 20);
    settings.setUserLocale(1, 'ru');
    expect(settings.user(1)).toEqual({ locale: 'ru', pageSize: 20 });
    expect(settings.user(2)).toEqual({ pageSize: 5 });
    // A user id and a chat id that happen to be equal do not share settings.
    settings.setChatLocale(2, 'en');
    expect(settings.user(2)).toEqual({ pageSize: 5 });
    expect(settings.chatLocale(2)).toBe('en');
    expect(settings.chatLocale(-100)).toBe('ru');
    expect(settings.chatLocale(1)).toBeUndefined();
    store.close();
  });

  it('reads values this version does not know as unset', () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    withRawDb(dataDir, (db) => {
      db.exec(`
        INSERT INTO user_settings VALUES (1, 'de', 50, 0), (2, 'en', 7, 0), (3, 'xx', 10, 0), (4, NULL, NULL, 0);
        INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'fr', 0), (-200, NULL, 0);
      `);
    });
    expect(store.settings.user(1)).toEqual({});
    expect(store.settings.user(2)).toEqual({ locale: 'en' });
    expect(store.settings.user(3)).toEqual({ pageSize: 10 });
    expect(store.settings.user(4)).toEqual({});
    expect(store.settings.chatLocale(-100)).toBeUndefined();
    expect(store.settings.chatLocale(-200)).toBeUndefined();
    store.close();
  });

  it('refuses to write values outside the known lists', () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    expect(() => store.settings.setUserLocale(1, 'de' as Locale)).toThrow(RangeError);
    expect(() => store.settings.setUserPageSize(1, 50 as PageSize)).toThrow(RangeError);
    expect(() => store.settings.setChatLocale(1.5, 'en')).toThrow(RangeError);
    expect(store.settings.user(1)).toEqual({});
    store.close();
  });
});
