import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/store/errors.ts';
import { postgresBackend } from '../store-backends.ts';

// The server ends the bot's connections (a restart, a failover) while one is checked out of the
// pool: inside a lock or a transaction. The process must not die of it (node-postgres emits the
// error on the client, where nobody listens but us) and the store must work again at once.

const TERMINATE = 'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the PostgreSQL store losing a connection it holds', () => {
  const backend = postgresBackend();

  it('inside `exclusively`: the task’s result stands, nothing is thrown uncaught, the lock is free again', async () => {
    const place = await backend.place();
    const store = await place.open();
    const result = await store.coordination.exclusively('webhook', async () => {
      await place.sql(TERMINATE);
      await sleep(200);
      return 'done';
    });
    expect(result).toBe('done');
    // The server let the lock go with the connection: another holder gets it at once.
    const other = await place.open();
    expect(await other.coordination.exclusively('webhook', async () => 'again')).toBe('again');
    await store.ping();
  });

  it('in the middle of a transaction: the write fails as "unavailable" and the next one succeeds', async () => {
    const place = await backend.place();
    const store = await place.open();
    // Polls and sends run in transactions: several at once, while the server drops every connection.
    await store.settings.setUserLocale(7, 'en');
    const writes = Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.settings.setUserLocale(100 + i, 'ru')));
    await place.sql(TERMINATE);
    for (const outcome of await writes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(StoreUnavailableError);
    await sleep(100);
    await store.settings.setUserLocale(8, 'en');
    expect(await store.settings.user(8)).toEqual({ locale: 'en' });
  });
});
