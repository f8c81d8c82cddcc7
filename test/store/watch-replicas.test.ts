import { describe, expect, it, vi } from 'vitest';
import { createPool } from '../../src/store/postgres/pool.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { heard, openReplica, RECONNECT_MS, unheard, type Line } from './replica-support.ts';
import { added, CONTRACT, GROUP, KEY, newWatch, PRIVATE, T0 } from './watch-contract-support.ts';

// Two replicas on one database, each keeping its chats' watch records in memory: a change made
// through one is seen by the other within a second, also after the connection that hears
// changes was lost (the same one as the settings': settings-replicas.test.ts).

const SOON = { timeout: 1_000, interval: 5 };

describe('postgres: watches cached by each replica', () => {
  it('a watch added, paused, resumed, moved or removed through one replica is seen by the other within a second', async () => {
    const url = await freshDatabase('watches');
    const [one, two] = [await openReplica(url), await openReplica(url)];
    try {
      expect(await two.watches.find(GROUP, KEY)).toBeUndefined();
      expect(await two.watches.resumeChat(GROUP)).toBe(false);
      const changed = Date.now();
      const watch = await added(one.watches, newWatch(GROUP, CONTRACT));
      await vi.waitFor(async () => expect(await two.watches.find(GROUP, KEY)).toEqual(watch), SOON);
      expect(Date.now() - changed).toBeLessThan(1_000);
      // The sender of one replica finds the chat gone; the chat writes to the other.
      await one.watches.pauseChat(GROUP, T0);
      await vi.waitFor(async () => expect(await two.watches.resumeChat(GROUP)).toBe(true), SOON);
      expect(await one.watches.claimDue('poller', T0 + 60_000, 60_000, 10)).toHaveLength(1);
      await one.watches.moveChat(GROUP, PRIVATE);
      await vi.waitFor(async () => expect(await two.watches.find(GROUP, KEY)).toBeUndefined(), SOON);
      expect(await two.watches.find(PRIVATE, KEY)).toMatchObject({ id: watch.id, chatId: PRIVATE });
      await two.watches.removeChat(PRIVATE);
      await vi.waitFor(async () => expect(await one.watches.find(PRIVATE, KEY)).toBeUndefined(), SOON);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a lost listener: watches are read from the database meanwhile, the cache starts empty once it is back', async () => {
    const url = await freshDatabase('watches');
    const lines: Line[] = [];
    const one = await openReplica(url, lines);
    const two = await openReplica(url);
    const raw = createPool({ url, size: 1 });
    const sql = async (text: string) => (await raw.query(text)).rows;
    try {
      await added(two.watches, newWatch(GROUP, CONTRACT));
      await vi.waitFor(async () => expect(await one.watches.find(GROUP, KEY)).toBeDefined(), SOON);
      expect(await one.watches.resumeChat(GROUP)).toBe(false);
      const killed = await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'order-lookup-bot settings'");
      expect(killed).toHaveLength(2);
      await vi.waitFor(() => expect(unheard(lines)).toBe(1), SOON);
      // Paused without a notice, as a change whose notice was missed: read through while unheard.
      await sql('UPDATE watches SET paused_at = 1');
      expect(await one.watches.resumeChat(GROUP)).toBe(true);
      await sql('UPDATE watches SET paused_at = 1');
      expect(heard(lines)).toBe(0);
      await vi.waitFor(() => expect(heard(lines)).toBe(1), { timeout: RECONNECT_MS + 1_000, interval: 5 });
      expect(await one.watches.resumeChat(GROUP)).toBe(true);
      // Changes are heard again.
      await two.watches.pauseChat(GROUP, T0);
      await vi.waitFor(async () => expect(await one.watches.resumeChat(GROUP)).toBe(true), SOON);
      // That resume sent its own notice, which makes `one` forget the chat once more when it
      // arrives: let it arrive before the chat is read into memory again.
      await new Promise((resolve) => setTimeout(resolve, 300));
      // And answered from memory again: a chat paused behind the stores' back (no notice) is not resumed.
      expect(await one.watches.resumeChat(GROUP)).toBe(false);
      await sql('UPDATE watches SET paused_at = 1');
      expect(await one.watches.resumeChat(GROUP)).toBe(false);
    } finally {
      await Promise.all([one.close(), two.close(), raw.end()]);
    }
  });
});
