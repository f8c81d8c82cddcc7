import { describe, expect, it, vi } from 'vitest';
import { createPool } from '../../src/store/postgres/pool.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { heard, openReplica, RECONNECT_MS, unheard, type Line } from './replica-support.ts';

// Two replicas on one database, each holding the allowed ids in memory: a grant or a removal made
// through one is in force on the other within a second, also while the connection that hears
// changes is lost (the list is then read every second).

describe('postgres: who is allowed, held by each replica', () => {
  it('a grant and a removal through one replica are in force on the other within a second', async () => {
    const url = await freshDatabase();
    const [one, two] = [await openReplica(url), await openReplica(url)];
    try {
      expect([two.access.hasUser(42), two.access.hasChat(-100)]).toEqual([false, false]);
      const granted = Date.now();
      await one.access.allowUser({ id: 42, by: 1, at: 1 });
      await one.access.allowChat({ id: -100, by: 1, at: 1 });
      await vi.waitFor(() => expect([two.access.hasUser(42), two.access.hasChat(-100)]).toEqual([true, true]), { timeout: 1_000, interval: 5 });
      expect(Date.now() - granted).toBeLessThan(1_000);
      const removed = Date.now();
      await two.access.denyUser(42);
      expect(two.access.hasUser(42)).toBe(false);
      await vi.waitFor(() => expect(one.access.hasUser(42)).toBe(false), { timeout: 1_000, interval: 5 });
      expect(Date.now() - removed).toBeLessThan(1_000);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a lost listener: the list is read every second meanwhile, and on notices again once it is back', async () => {
    const url = await freshDatabase();
    const lines: Line[] = [];
    const one = await openReplica(url, lines);
    const raw = createPool({ url, size: 1 });
    const sql = async (text: string) => (await raw.query(text)).rows;
    try {
      await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'order-lookup-bot settings'");
      await vi.waitFor(() => expect(unheard(lines)).toBe(1), { timeout: 1_000, interval: 5 });
      // Written with no notice, as a change whose notice was missed: read within a second anyway.
      await sql('INSERT INTO access_users VALUES (42, 0, 1, NULL)');
      const written = Date.now();
      await vi.waitFor(() => expect(one.access.hasUser(42)).toBe(true), { timeout: 1_500, interval: 5 });
      expect(Date.now() - written).toBeLessThan(1_500);
      expect(heard(lines)).toBe(0);
      await vi.waitFor(() => expect(heard(lines)).toBe(1), { timeout: RECONNECT_MS + 1_000, interval: 5 });
      await sql('DELETE FROM access_users; SELECT pg_notify($$access_changed$$, $$$$)');
      await vi.waitFor(() => expect(one.access.hasUser(42)).toBe(false), { timeout: 1_000, interval: 5 });
    } finally {
      await Promise.all([one.close(), raw.end()]);
    }
  });
});
