import { describe, expect, it } from 'vitest';
import type { Locale } from '../../src/i18n.ts';
import type { PageSize } from '../../src/query.ts';
import { failure, usePlace, type Backend } from './store-backends.ts';

// What every store's settings must do, whatever keeps them: run by settings.test.ts for each
// backend, on a fresh, empty store per test.

export const describeSettingsContract = (backend: Backend): void => {
  describe(`${backend.name}: settings`, () => {
    const place = usePlace(backend);

    it('reads nothing saved as unset', async () => {
      const { settings } = await place().open();
      expect(await settings.user(42)).toEqual({});
      expect(await settings.chatLocale(-100)).toBeUndefined();
    });

    it('keeps locale and page size per user, and a locale per chat, each on its own', async () => {
      const { settings } = await place().open();
      await settings.setUserLocale(1, 'en');
      await settings.setUserPageSize(2, 5);
      await settings.setChatLocale(-100, 'ru');
      expect(await settings.user(1)).toEqual({ locale: 'en' });
      expect(await settings.user(2)).toEqual({ pageSize: 5 });
      await settings.setUserPageSize(1, 20);
      await settings.setUserLocale(1, 'ru');
      expect(await settings.user(1)).toEqual({ locale: 'ru', pageSize: 20 });
      // A user id and a chat id that happen to be equal do not share settings.
      await settings.setChatLocale(2, 'en');
      expect(await settings.user(2)).toEqual({ pageSize: 5 });
      expect(await settings.chatLocale(2)).toBe('en');
      expect(await settings.chatLocale(-100)).toBe('ru');
      expect(await settings.chatLocale(1)).toBeUndefined();
    });

    it('keeps Telegram ids past 2^32, and settings across a restart', async () => {
      const before = await place().open();
      await before.settings.setChatLocale(-1001234567890, 'en');
      await before.settings.setUserPageSize(8_000_000_000, 20);
      await before.close();
      const after = await place().open();
      expect(await after.settings.chatLocale(-1001234567890)).toBe('en');
      expect(await after.settings.user(8_000_000_000)).toEqual({ pageSize: 20 });
    });

    it('reads values this version does not know as unset', async () => {
      const { settings } = await place().open();
      await place().sql("INSERT INTO user_settings VALUES (1, 'de', 50, 0), (2, 'en', 7, 0), (3, 'xx', 10, 0), (4, NULL, NULL, 0)");
      await place().sql("INSERT INTO chat_settings (chat_id, locale, time_zone, updated_at) VALUES (-100, 'fr', 'Mars/Base', 0), (-200, NULL, NULL, 0)");
      expect(await settings.user(1)).toEqual({});
      expect(await settings.user(2)).toEqual({ locale: 'en' });
      expect(await settings.user(3)).toEqual({ pageSize: 10 });
      expect(await settings.user(4)).toEqual({});
      expect(await settings.chatLocale(-100)).toBeUndefined();
      expect(await settings.chatLocale(-200)).toBeUndefined();
      expect(await settings.chatTimeZone(-100)).toBeUndefined();
      expect(await settings.chatTimeZone(-200)).toBeUndefined();
    });

    it("keeps each chat's time zone, apart from its language, and refuses a name Intl does not spell so", async () => {
      const { settings } = await place().open();
      await settings.setChatLocale(-100, 'en');
      await settings.setChatTimeZone(-100, 'Asia/Yekaterinburg');
      await settings.setChatTimeZone(42, 'Asia/Novosibirsk');
      expect(await settings.chatTimeZone(-100)).toBe('Asia/Yekaterinburg');
      expect(await settings.chatLocale(-100)).toBe('en');
      expect(await settings.chatTimeZone(42)).toBe('Asia/Novosibirsk');
      expect(await settings.chatLocale(42)).toBeUndefined();
      expect(await settings.chatTimeZone(43)).toBeUndefined();
      await settings.setChatTimeZone(-100, 'Europe/Kaliningrad');
      expect(await settings.chatTimeZone(-100)).toBe('Europe/Kaliningrad');
      for (const bad of ['Mars/Base', 'asia/yekaterinburg', '']) expect(await failure(() => settings.setChatTimeZone(-100, bad))).toBeInstanceOf(RangeError);
      const again = await place().open();
      expect(await again.settings.chatTimeZone(-100)).toBe('Europe/Kaliningrad');
    });

    it('refuses ids that are not Telegram ids and values outside the known lists, writing nothing', async () => {
      const { settings } = await place().open();
      expect(await failure(() => settings.setUserLocale(1, 'de' as Locale))).toBeInstanceOf(RangeError);
      expect(await failure(() => settings.setUserPageSize(1, 50 as PageSize))).toBeInstanceOf(RangeError);
      expect(await failure(() => settings.setChatLocale(1.5, 'en'))).toBeInstanceOf(RangeError);
      expect(await failure(() => settings.setUserLocale(2 ** 53, 'en'))).toBeInstanceOf(RangeError);
      expect(await failure(() => settings.user(Number.NaN))).toBeInstanceOf(RangeError);
      expect(await settings.user(1)).toEqual({});
      expect(await place().sql('SELECT count(*) AS n FROM user_settings')).toEqual([{ n: 0 }]);
    });
  });
};
