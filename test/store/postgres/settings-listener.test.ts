import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { listenForSettings } from '../../../src/store/postgres/settings-listener.ts';
import { createPool } from '../../../src/store/postgres/pool.ts';
import { createPostgresSettingsStore } from '../../../src/store/postgres/settings.ts';
import { cacheSettings } from '../../../src/store/settings-cache.ts';
import { freshDatabase } from '../../support/pg-database.ts';
import { heard, openReplica, unheard, type Line } from '../replica-support.ts';
import { createForwarder, freePort } from '../tcp-forwarder.ts';

// A replica's listening connection that stops carrying anything without being closed (a NAT or
// firewall that forgot it: no FIN, no RST): the heartbeat notices, settings are read from the
// database meanwhile, and a new connection hears changes again.

const HEARTBEAT_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('postgres: the settings listener', () => {
  it('notices a connection that stalls silently, reads settings through meanwhile, and listens again on a new one', async () => {
    const url = await freshDatabase();
    const one = await openReplica(url);
    // Replica two: its cache reads through a pool of its own, its listener goes through the forwarder.
    const forwarder = createForwarder(Number(new URL(url).port), await freePort());
    await forwarder.start();
    const listenUrl = new URL(url);
    listenUrl.port = String(forwarder.port);
    const pool = createPool({ url, size: 2 });
    const cache = cacheSettings(createPostgresSettingsStore(pool, Date.now), { live: false });
    const lines: Line[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
    const listener = await listenForSettings({
      url: listenUrl.href,
      database: 'two',
      logger,
      cache,
      backoff: { baseMs: 50, maxMs: 50, random: () => 1 },
      heartbeatMs: HEARTBEAT_MS,
    });
    const two = cache.settings;
    try {
      await one.settings.setUserPageSize(42, 10);
      // Read once its notice was heard: kept in memory from now on.
      await sleep(100);
      expect(await two.user(42)).toEqual({ pageSize: 10 });

      forwarder.stall();
      // Its notice goes into the stalled connection and never arrives.
      await one.settings.setUserPageSize(42, 5);
      await vi.waitFor(async () => expect(await two.user(42)).toEqual({ pageSize: 5 }), { timeout: HEARTBEAT_MS * 2 + 1_000, interval: 20 });
      expect(lines.find((line) => line.msg.startsWith('settings changes are unheard'))).toMatchObject({ reason: `no answer to a heartbeat within ${HEARTBEAT_MS} ms` });

      // A new connection through the forwarder: heard again, and kept in memory again.
      await vi.waitFor(() => expect(heard(lines)).toBe(1), { timeout: 2_000, interval: 5 });
      await one.settings.setUserPageSize(42, 20);
      await vi.waitFor(async () => expect(await two.user(42)).toEqual({ pageSize: 20 }), { timeout: 1_000, interval: 5 });
      await pool.query('UPDATE user_settings SET page_size = 10 WHERE user_id = 42');
      expect(await two.user(42)).toEqual({ pageSize: 20 });
      // A healthy connection's heartbeats find nothing to report.
      await sleep(HEARTBEAT_MS * 3);
      expect(unheard(lines)).toBe(1);
    } finally {
      await forwarder.stop();
      await listener.close();
      await Promise.all([pool.end(), one.close()]);
    }
  });

  it('closes even when its connection has stalled (the server never sees the end)', async () => {
    const url = await freshDatabase();
    const forwarder = createForwarder(Number(new URL(url).port), await freePort());
    await forwarder.start();
    const listenUrl = new URL(url);
    listenUrl.port = String(forwarder.port);
    const cache = cacheSettings({} as never, { live: false });
    const listener = await listenForSettings({ url: listenUrl.href, database: 'two', logger: pino({ level: 'silent' }), cache, backoff: { baseMs: 50, maxMs: 50 }, heartbeatMs: 60_000 });
    try {
      forwarder.stall();
      await listener.close();
    } finally {
      await forwarder.stop();
    }
  }, 5_000);
});
