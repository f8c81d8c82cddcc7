import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreOpenError, StoreUnavailableError } from '../../../src/store/errors.ts';
import { StoreVersionError } from '../../../src/store/errors.ts';
import { openStore } from '../../../src/store/open-store.ts';
import { createPool, describeDatabase } from '../../../src/store/postgres/pool.ts';
import { openPostgresStore, type PostgresStoreOptions } from '../../../src/store/postgres/store.ts';
import type { Store } from '../../../src/store/store.ts';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/schema.ts';
import { freshDatabase, postgresServerUrl } from '../../support/pg-database.ts';
import { failure, quietLogger } from '../store-backends.ts';
import { useTempDirs } from '../support.ts';
import { createForwarder, freePort, type Forwarder } from '../tcp-forwarder.ts';

const tempDir = useTempDirs();
const opened: Store[] = [];
const forwarders: Forwarder[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const forwarder of forwarders.splice(0)) await forwarder.stop();
});

const open = async (options: Partial<PostgresStoreOptions> & { url: string }) => {
  const store = await openPostgresStore({ poolSize: 2, logger: quietLogger, ...options });
  opened.push(store);
  return store;
};

/** Runs one statement on the database at `url`, as the superuser; its rows. */
const sql = async (url: string, text: string, values: unknown[] = []) => {
  const pool = createPool({ url, size: 1 });
  try {
    return (await pool.query<Record<string, unknown>>(text, values)).rows;
  } finally {
    await pool.end();
  }
};

const tables = async (url: string) =>
  (await sql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).map((row) => row.tablename);

/** A pino logger whose lines are kept, parsed. */
const capturedLogger = () => {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void (raw.push(line), lines.push(JSON.parse(line) as Record<string, unknown>)) });
  return { logger, lines, raw };
};

/** The run's server reached through a forwarder on a port of its own, to the database `url` names. */
const throughForwarder = (url: string, port: number, password?: string) => {
  const forwarded = new URL(url);
  const forwarder = createForwarder(Number(forwarded.port), port);
  forwarders.push(forwarder);
  forwarded.port = String(port);
  if (password !== undefined) forwarded.password = password;
  return { forwarder, url: forwarded.href };
};

const waitFor = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the postgres store: its schema', () => {
  it('builds the schema on an empty database and records the migration', async () => {
    const url = await freshDatabase();
    await open({ url });
    expect(await tables(url)).toEqual([
      'access_chats', 'access_request_messages', 'access_requests', 'access_users', 'autolookup_chats', 'chat_settings', 'digests', 'guest_cards',
      'held_changes', 'last_seen', 'leases', 'notifications', 'private_answer_chats', 'queries', 'quiet_periods', 'rate_windows', 'schema_migrations',
      'shared_values', 'status_names', 'usage_counts', 'usage_users', 'user_settings', 'watch_targets', 'watches',
    ]);
    expect(await sql(url, 'SELECT version, name FROM schema_migrations ORDER BY version')).toEqual(POSTGRES_MIGRATIONS.map((migration, index) => ({ version: index + 1, name: migration.name })));
    expect(POSTGRES_MIGRATIONS[0]?.name).toBe('queries, settings, watches, coordination and limits');
  });

  it('lets five replicas open an empty database at the same moment, migrating it once', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([1, 2, 3, 4, 5].map(() => open({ url })));
    expect(stores.map((store) => store.backend)).toEqual(Array(5).fill('postgres'));
    expect(await sql(url, 'SELECT count(*) AS n FROM schema_migrations')).toEqual([{ n: POSTGRES_MIGRATIONS.length }]);
    await stores[0]?.settings.setUserLocale(42, 'en');
    expect(await stores[4]?.settings.user(42)).toEqual({ locale: 'en' });
  });

  it('refuses a database written by a newer version, saying what to do, and writes nothing', async () => {
    const url = await freshDatabase();
    await sql(url, 'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const known = POSTGRES_MIGRATIONS.length;
    await sql(url, `INSERT INTO schema_migrations (version, name) SELECT n, 'applied' FROM generate_series(1, ${known}) AS n`);
    await sql(url, `INSERT INTO schema_migrations (version, name) VALUES (${known + 1}, 'from the future')`);
    await sql(url, 'CREATE TABLE future (id INTEGER)');
    const { logger, lines } = capturedLogger();
    const error = await failure(() => open({ url, logger }));
    expect(error).toBeInstanceOf(StoreVersionError);
    expect(error).toMatchObject({ code: 'ERR_STORE_VERSION', found: known + 1, known });
    expect((error as Error).message).toBe(
      `the database has schema version ${known + 1}, but this version of the bot knows only up to ${known}: it was written by a newer version. ` +
        'Run that version, or point DATABASE_URL at another database; the database was left unchanged.',
    );
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
    expect(await tables(url)).toEqual(['future', 'schema_migrations']);
    expect(await sql(url, 'SELECT count(*) AS n FROM schema_migrations')).toEqual([{ n: known + 1 }]);
  });

  it('opens an up-to-date database without migrating it again, keeping what it holds', async () => {
    const url = await freshDatabase();
    const before = await open({ url });
    await before.settings.setChatLocale(-100, 'en');
    await before.close();
    const recorded = await sql(url, 'SELECT version, applied_at FROM schema_migrations');
    const after = await open({ url });
    expect(await sql(url, 'SELECT version, applied_at FROM schema_migrations')).toEqual(recorded);
    expect(await after.settings.chatLocale(-100)).toBe('en');
  });
});

describe('the postgres store at start', () => {
  it('waits for a database that does not answer yet, saying so in the log without the password', async () => {
    const { url, forwarder } = throughForwarder(await freshDatabase(), await freePort(), 'pa55word');
    const { logger, lines, raw } = capturedLogger();
    const opening = openPostgresStore({ url, poolSize: 2, logger, backoff: { baseMs: 50, maxMs: 200 } });
    await waitFor(() => lines.filter((line) => line.level === 40).length >= 3, 'three retry warnings');
    await forwarder.start();
    const store = await opening;
    opened.push(store);
    await store.settings.setUserLocale(42, 'en');
    expect(await store.settings.user(42)).toEqual({ locale: 'en' });

    const warnings = lines.filter((line) => line.level === 40);
    for (const [index, warning] of warnings.entries()) {
      expect(warning).toMatchObject({
        msg: 'the database does not answer: the store will try again',
        database: describeDatabase(url),
        attempt: index + 1,
        retryInMs: expect.any(Number),
        reason: expect.stringMatching(/ECONNREFUSED/),
      });
    }
    expect(describeDatabase(url)).toMatch(/^postgres:\/\/127\.0\.0\.1:\d+\/bot_/);
    expect(lines.at(-1)).toMatchObject({ msg: 'the store is PostgreSQL', database: describeDatabase(url), schemaVersion: POSTGRES_MIGRATIONS.length });
    expect(raw.join('')).not.toContain('pa55word');
  });

  it('refuses at once a database that does not exist, saying what to do', async () => {
    const url = new URL(postgresServerUrl());
    url.pathname = '/no_such_database';
    const { logger, lines } = capturedLogger();
    const started = Date.now();
    const error = await failure(() => open({ url: url.href, logger }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({ code: 'ERR_STORE_OPEN', path: describeDatabase(url.href), hint: 'Create the database, or fix its name in DATABASE_URL.' });
    expect((error as Error).message).toMatch(/^cannot open the store postgres:\/\/127\.0\.0\.1:\d+\/no_such_database: database "no_such_database" does not exist\. Create/);
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
  });

  it('refuses at once a user who may not create the tables', async () => {
    const url = await freshDatabase();
    const role = `limited_${process.pid}_${Date.now().toString(36)}`;
    await sql(url, `CREATE ROLE ${role} LOGIN`);
    const asRole = new URL(url);
    asRole.username = role;
    const error = await failure(() => open({ url: asRole.href }));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(/permission denied for schema public\. Grant DATABASE_URL's user the rights/);
    expect(await tables(url)).toEqual([]);
  });
});

describe('the postgres store while it runs', () => {
  it('fails calls with a StoreUnavailableError naming the database while it is down, and recovers', async () => {
    const direct = await freshDatabase();
    const { url, forwarder } = throughForwarder(direct, await freePort());
    await forwarder.start();
    const { logger, lines } = capturedLogger();
    const store = await open({ url, logger });
    await store.settings.setUserLocale(42, 'en');
    await store.ping();

    // The server drops the bot's connections: the idle ones are heard of (not left to end the
    // process); then it takes no new ones through this port.
    await sql(direct, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    await waitFor(() => lines.some((line) => line.msg === 'a connection to the database was lost' && line.level === 40), 'the lost connection in the log');
    await forwarder.stop();
    const down = await failure(() => store.ping());
    expect(down).toBeInstanceOf(StoreUnavailableError);
    expect((down as Error).message).toMatch(new RegExp(`^cannot write to the store ${describeDatabase(url)}: `));
    for (const call of [
      () => store.settings.setUserLocale(42, 'ru'),
      () => store.settings.user(42),
      () => store.queries.save({ resource: 'order', filter: 'SAP_ID', value: '1' }),
      () => store.limits.hit(42, 0, 1_000),
      () => store.coordination.lease('polling', 'a', 0, 1_000),
      () => store.watches.counts(),
    ]) {
      expect(await failure(call)).toBeInstanceOf(StoreUnavailableError);
    }
    let ran = false;
    expect(await failure(() => store.coordination.exclusively('set-webhook', async () => void (ran = true)))).toBeInstanceOf(StoreUnavailableError);
    expect(ran).toBe(false);

    await forwarder.start();
    await store.ping();
    expect(await store.settings.user(42)).toEqual({ locale: 'en' });
  });

  it('gives a failure that is not the connection’s as it was', async () => {
    const url = await freshDatabase();
    const store = await open({ url });
    await sql(url, 'DROP TABLE user_settings');
    const error = await failure(() => store.settings.user(1));
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ code: '42P01' });
  });

  it('can be closed twice, and answers no ping after', async () => {
    const store = await open({ url: await freshDatabase() });
    await store.close();
    await store.close();
    expect(await failure(() => store.ping())).toBeInstanceOf(StoreUnavailableError);
  });
});

describe('openStore', () => {
  it('opens the sqlite file in DATA_DIR when no database is set, and PostgreSQL when one is', async () => {
    const sqlite = await openStore({ dataDir: tempDir(), database: undefined }, { logger: quietLogger });
    opened.push(sqlite);
    expect(sqlite.backend).toBe('sqlite');
    const postgres = await openStore({ dataDir: tempDir(), database: { url: await freshDatabase(), poolSize: 2 } }, { logger: quietLogger });
    opened.push(postgres);
    expect(postgres.backend).toBe('postgres');
    await postgres.settings.setUserLocale(1, 'en');
    expect(await sqlite.settings.user(1)).toEqual({});
  });
});
