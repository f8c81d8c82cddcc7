import type { DatabaseSync } from 'node:sqlite';
import { checkId, checkLocale, checkPageSize, checkTimeZone, readLocale, readPageSize, readTimeZone } from '../checks.ts';
import type { SettingsStore, UserSettings } from '../store.ts';

export const createSqliteSettingsStore = (db: DatabaseSync, now: () => number): SettingsStore => {
  const selectUser = db.prepare('SELECT locale, page_size FROM user_settings WHERE user_id = ?');
  const upsertUserLocale = db.prepare(`
    INSERT INTO user_settings (user_id, locale, updated_at) VALUES (:id, :locale, :now)
    ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`);
  const upsertUserPageSize = db.prepare(`
    INSERT INTO user_settings (user_id, page_size, updated_at) VALUES (:id, :pageSize, :now)
    ON CONFLICT (user_id) DO UPDATE SET page_size = excluded.page_size, updated_at = excluded.updated_at`);
  const selectChat = db.prepare('SELECT locale FROM chat_settings WHERE chat_id = ?');
  const selectChatZone = db.prepare('SELECT time_zone FROM chat_settings WHERE chat_id = ?');
  const upsertChatZone = db.prepare(`
    INSERT INTO chat_settings (chat_id, time_zone, updated_at) VALUES (:id, :zone, :now)
    ON CONFLICT (chat_id) DO UPDATE SET time_zone = excluded.time_zone, updated_at = excluded.updated_at`);
  const upsertChatLocale = db.prepare(`
    INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (:id, :locale, :now)
    ON CONFLICT (chat_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`);

  return {
    user(userId) {
      const row = selectUser.get(checkId(userId));
      const locale = readLocale(row?.locale);
      const pageSize = readPageSize(row?.page_size);
      const settings: UserSettings = {};
      if (locale) settings.locale = locale;
      if (pageSize) settings.pageSize = pageSize;
      return settings;
    },
    setUserLocale(userId, locale) {
      upsertUserLocale.run({ id: checkId(userId), locale: checkLocale(locale), now: now() });
    },
    setUserPageSize(userId, pageSize) {
      upsertUserPageSize.run({ id: checkId(userId), pageSize: checkPageSize(pageSize), now: now() });
    },
    chatLocale(chatId) {
      return readLocale(selectChat.get(checkId(chatId))?.locale);
    },
    setChatLocale(chatId, locale) {
      upsertChatLocale.run({ id: checkId(chatId), locale: checkLocale(locale), now: now() });
    },
    chatTimeZone(chatId) {
      return readTimeZone(selectChatZone.get(checkId(chatId))?.time_zone);
    },
    setChatTimeZone(chatId, timeZone) {
      upsertChatZone.run({ id: checkId(chatId), zone: checkTimeZone(timeZone), now: now() });
    },
  };
};
