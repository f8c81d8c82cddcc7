import pg from 'pg';
import { createAccess } from '../../../src/access.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { accessMiddleware, REFUSAL_QUIET_MS } from '../../../src/bot/middleware/access.ts';
import { floodLimit } from '../../../src/bot/middleware/flood-limit.ts';
import { openPostgresStore } from '../../../src/store/postgres/store.ts';
import type { Store } from '../../../src/store/store.ts';
import { freshDatabase } from '../../support/pg-database.ts';
import { createForwarder, freePort, type Forwarder } from '../../store/tcp-forwarder.ts';
import { createChats, createClock, createLogs } from './access-flood-updates.ts';

// Two replicas, each with its own pool, on one real PostgreSQL database: the limits they share.

const opened: Store[] = [];
const forwarders: Forwarder[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const forwarder of forwarders.splice(0)) await forwarder.stop();
});

const SLOW_DOWN = 'Too many requests in a row. Please wait a minute and try again.';
const GROUP = { id: -100_777, type: 'supergroup' } as const;
const lists = createAccess({ userIds: new Set<number>(), chatIds: new Set<number>(), anyone: false, adminIds: new Set<number>() });

/** A replica: its own store (pool) on `url`, its own middlewares, what it said. */
const startReplica = async (url: string, clock: ReturnType<typeof createClock>, { statementTimeoutMs }: { statementTimeoutMs?: number } = {}) => {
  const logs = createLogs();
  const store = await openPostgresStore({ url, poolSize: 3, logger: logs.logger, connectTimeoutMs: 1_000, ...(statementTimeoutMs !== undefined && { statementTimeoutMs }) });
  opened.push(store);
  const chats = createChats();
  const access = accessMiddleware(lists, { limits: store.limits, logger: logs.logger, now: clock.now });
  const limit = floodLimit({ perMinute: 3, limits: store.limits, logger: logs.logger, now: clock.now });
  return {
    logs,
    chats,
    /** A member's query: only the flood limit applies. */
    query: (from: number) => chats.send([limit], { from, text: '/order 1' }),
    /** A stranger's command in the group: only the access list applies. */
    strangerInGroup: (from: number) => chats.send([access], { from, chat: GROUP, text: '/order 1' }),
  };
};

describe('limits shared by replicas on PostgreSQL', () => {
  it('gives a user the flood limit once across replicas, with one "slow down", even when the queries race', async () => {
    const url = await freshDatabase('limits');
    const clock = createClock();
    const [one, two] = [await startReplica(url, clock), await startReplica(url, clock)];
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? one : two).query(1)));
    expect(one.chats.served() + two.chats.served()).toBe(3);
    expect([...one.chats.said, ...two.chats.said]).toEqual([{ chatId: 1, text: SLOW_DOWN }]);

    // A user at the limit through replica 1 is limited through replica 2.
    await one.query(2);
    await one.query(2);
    await one.query(2);
    await two.query(2);
    expect(two.chats.said).toContainEqual({ chatId: 2, text: SLOW_DOWN });

    clock.advance(60_000);
    await two.query(1);
    await one.query(2);
    expect(one.chats.served() + two.chats.served()).toBe(8);
  });

  it('refuses a stranger in a group once across replicas, even when the commands race', async () => {
    const url = await freshDatabase('limits');
    const clock = createClock();
    const [one, two] = [await startReplica(url, clock), await startReplica(url, clock)];
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).strangerInGroup(777)));
    const refusals = () => [...one.chats.said, ...two.chats.said].filter((said) => said.text.includes('not available in this chat'));
    expect(refusals()).toHaveLength(1);
    clock.advance(REFUSAL_QUIET_MS);
    await two.strangerInGroup(777);
    await one.strangerInGroup(777);
    expect(refusals()).toHaveLength(2);
  });

  it('while the database is down: queries pass, strangers hear nothing, one warning each; limited again once it is back', async () => {
    const url = new URL(await freshDatabase('limits'));
    const forwarder = createForwarder(Number(url.port), await freePort());
    forwarders.push(forwarder);
    await forwarder.start();
    url.port = String(forwarder.port);
    const clock = createClock();
    const replica = await startReplica(url.href, clock);

    await forwarder.stop();
    for (let i = 0; i < 5; i += 1) await replica.query(1);
    for (let i = 0; i < 3; i += 1) await replica.strangerInGroup(777);
    expect(replica.chats.served()).toBe(5);
    expect(replica.chats.said).toEqual([]);
    expect(replica.logs.warnings().map((line) => line.msg)).toEqual([
      expect.stringContaining('flood limit cannot reach the store'),
      expect.stringContaining('refusal cooldown cannot reach the store'),
    ]);

    await forwarder.start();
    for (let i = 0; i < 4; i += 1) await replica.query(1);
    await replica.strangerInGroup(777);
    expect(replica.chats.served()).toBe(8);
    expect(replica.chats.said.map((said) => said.text)).toEqual([SLOW_DOWN, expect.stringContaining('not available in this chat')]);
  });

  it('while the flood windows stay locked past the statement timeout: queries pass, as with the database down', async () => {
    const url = await freshDatabase('limits');
    const clock = createClock();
    const replica = await startReplica(url, clock, { statementTimeoutMs: 300 });
    // A long transaction elsewhere (a migration, an operator's session) holds the table.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE rate_windows IN ACCESS EXCLUSIVE MODE');
      await replica.query(1);
      await replica.query(2);
      expect(replica.chats.served()).toBe(2);
      expect(replica.chats.said).toEqual([]);
      expect(replica.logs.warnings()).toEqual([
        expect.objectContaining({ msg: expect.stringContaining('flood limit cannot reach the store'), err: expect.objectContaining({ message: expect.stringContaining('statement timeout') }) }),
      ]);
    } finally {
      await locker.end();
    }
    // Free again: counted and limited as before.
    for (let i = 0; i < 4; i += 1) await replica.query(1);
    expect(replica.chats.served()).toBe(5);
    expect(replica.chats.said.map((said) => said.text)).toEqual([SLOW_DOWN]);
  });
});
