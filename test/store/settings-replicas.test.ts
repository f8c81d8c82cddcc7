import { describe, expect, it, vi } from 'vitest';
import { freshDatabase } from '../support/pg-database.ts';
import { heard, openReplica, RECONNECT_MS, unheard, type Line } from './replica-support.ts';
import { createPool } from '../../src/store/postgres/pool.ts';

// Two replicas on one database, each keeping settings in memory: a change made through one is
// read by the other within a second, also after the connection that hears changes was lost.

describe('postgres: settings cached by each replica', () => {
  it('a /lang change through one replica is read by the other within a second', async () => {
    const url = await freshDatabase();
    const [one, two] = [await openReplica(url), await openReplica(url)];
    try {
      expect(await two.settings.user(42)).toEqual({});
      expect(await two.settings.chatLocale(-100)).toBeUndefined();
      const changed = Date.now();
      await one.settings.setUserLocale(42, 'en');
      await one.settings.setChatLocale(-100, 'en');
      await vi.waitFor(async () => expect(await two.settings.user(42)).toEqual({ locale: 'en' }), { timeout: 1_000, interval: 5 });
      await vi.waitFor(async () => expect(await two.settings.chatLocale(-100)).toBe('en'), { timeout: 1_000, interval: 5 });
      expect(Date.now() - changed).toBeLessThan(1_000);
      await two.settings.setUserPageSize(42, 20);
      await vi.waitFor(async () => expect(await one.settings.user(42)).toEqual({ locale: 'en', pageSize: 20 }), { timeout: 1_000, interval: 5 });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a lost listener: settings are read from the database meanwhile, the cache starts empty once it is back', async () => {
    const url = await freshDatabase();
    const lines: Line[] = [];
    const one = await openReplica(url, lines);
    const two = await openReplica(url);
    const raw = createPool({ url, size: 1 });
    const sql = async (text: string) => (await raw.query(text)).rows;
    try {
      expect(await one.settings.user(42)).toEqual({});
      const killed = await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'order-lookup-bot settings'");
      expect(killed).toHaveLength(2);
      await vi.waitFor(() => expect(unheard(lines)).toBe(1), { timeout: 1_000, interval: 5 });
      // Written without a notice, as a change whose notice was missed: read through while unheard.
      await sql("INSERT INTO user_settings VALUES (42, 'en', NULL, 0)");
      expect(await one.settings.user(42)).toEqual({ locale: 'en' });
      expect(heard(lines)).toBe(0);
      await sql("UPDATE user_settings SET locale = 'ru' WHERE user_id = 42");
      await vi.waitFor(() => expect(heard(lines)).toBe(1), { timeout: RECONNECT_MS + 1_000, interval: 5 });
      expect(await one.settings.user(42)).toEqual({ locale: 'ru' });
      // Changes are heard again.
      await two.settings.setUserLocale(42, 'en');
      await vi.waitFor(async () => expect(await one.settings.user(42)).toEqual({ locale: 'en' }), { timeout: 1_000, interval: 5 });
      // And served from memory again: a row changed behind the stores' back (no notice) is not read.
      await sql("UPDATE user_settings SET locale = 'ru' WHERE user_id = 42");
      expect(await one.settings.user(42)).toEqual({ locale: 'en' });
    } finally {
      await Promise.all([one.close(), two.close(), raw.end()]);
    }
  });
});
