import type pg from 'pg';
import { checkId, checkLocale, checkPageSize, checkTimeZone, readLocale, readPageSize, readTimeZone } from '../checks.ts';
import type { Locale } from '../../i18n.ts';
import type { PageSize } from '../../query.ts';
import type { UserSettings } from '../store.ts';

// Each user's language and page size and each group's language, shared by every replica: set
// through one, read by the next update another serves. Each write notifies the other replicas in
// its own statement, so on commit (settings-listener.ts evicts their cached copy).

/** The write, then a notice '<kind>:<id>' sent when (and only if) it commits. */
const notifying = (write: string, kind: 'user' | 'chat', key: string): string =>
  `WITH saved AS (${write} RETURNING ${key}) SELECT pg_notify('settings_changed', '${kind}:' || ${key}) FROM saved`;

export type PostgresSettingsStore = {
  user(userId: number): Promise<UserSettings>;
  setUserLocale(userId: number, locale: Locale): Promise<void>;
  setUserPageSize(userId: number, pageSize: PageSize): Promise<void>;
  chatLocale(chatId: number): Promise<Locale | undefined>;
  setChatLocale(chatId: number, locale: Locale): Promise<void>;
  chatTimeZone(chatId: number): Promise<string | undefined>;
  setChatTimeZone(chatId: number, timeZone: string): Promise<void>;
};

export const createPostgresSettingsStore = (pool: pg.Pool, now: () => number): PostgresSettingsStore => ({
  async user(userId) {
    const { rows } = await pool.query<{ locale: unknown; page_size: unknown }>('SELECT locale, page_size FROM user_settings WHERE user_id = $1', [checkId(userId)]);
    const locale = readLocale(rows[0]?.locale);
    const pageSize = readPageSize(rows[0]?.page_size);
    const settings: UserSettings = {};
    if (locale) settings.locale = locale;
    if (pageSize) settings.pageSize = pageSize;
    return settings;
  },
  async setUserLocale(userId, locale) {
    await pool.query(
      notifying(
        `INSERT INTO user_settings (user_id, locale, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`,
        'user',
        'user_id',
      ),
      [checkId(userId), checkLocale(locale), now()],
    );
  },
  async setUserPageSize(userId, pageSize) {
    await pool.query(
      notifying(
        `INSERT INTO user_settings (user_id, page_size, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET page_size = excluded.page_size, updated_at = excluded.updated_at`,
        'user',
        'user_id',
      ),
      [checkId(userId), checkPageSize(pageSize), now()],
    );
  },
  async chatLocale(chatId) {
    const { rows } = await pool.query<{ locale: unknown }>('SELECT locale FROM chat_settings WHERE chat_id = $1', [checkId(chatId)]);
    return readLocale(rows[0]?.locale);
  },
  async setChatLocale(chatId, locale) {
    await pool.query(
      notifying(
        `INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (chat_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`,
        'chat',
        'chat_id',
      ),
      [checkId(chatId), checkLocale(locale), now()],
    );
  },
  async chatTimeZone(chatId) {
    const { rows } = await pool.query<{ time_zone: unknown }>('SELECT time_zone FROM chat_settings WHERE chat_id = $1', [checkId(chatId)]);
    return readTimeZone(rows[0]?.time_zone);
  },
  async setChatTimeZone(chatId, timeZone) {
    await pool.query(
      notifying(
        `INSERT INTO chat_settings (chat_id, time_zone, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (chat_id) DO UPDATE SET time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
        'chat',
        'chat_id',
      ),
      [checkId(chatId), checkTimeZone(timeZone), now()],
    );
  },
});
