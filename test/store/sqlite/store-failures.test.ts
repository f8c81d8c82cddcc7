import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreOpenError, StoreUnavailableError } from '../../../src/store/errors.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { useTempDirs, withRawDb } from '../support.ts';

const tempDir = useTempDirs();

/** What openSqliteStore threw, or a failure when it did not throw. */
const openError = (options: Parameters<typeof openSqliteStore>[0]): unknown => {
  try {
    openSqliteStore(options).close();
  } catch (error) {
    return error;
  }
  throw new Error('the store opened');
};

/** A store whose file cannot grow past its size after migration: a full disk. */
const openFull = (dataDir: string) => {
  openSqliteStore({ dataDir }).close();
  const pages = withRawDb(dataDir, (db) => Number(db.prepare('PRAGMA page_count').get()?.page_count));
  return openSqliteStore({ dataDir, maxPageCount: pages });
};

/** Runs `write` with ever new arguments until it throws; returns what it threw. */
const writeUntilFailure = (write: (i: number) => void): unknown => {
  for (let i = 1; i < 10_000; i += 1) {
    try {
      write(i);
    } catch (error) {
      return error;
    }
  }
  throw new Error('the store never filled up');
};

describe('the sqlite store on a full disk', () => {
  it('fails a settings write with a StoreUnavailableError naming the file', () => {
    const dataDir = tempDir();
    const store = openFull(dataDir);
    const error = writeUntilFailure((i) => store.settings.setUserLocale(i, 'en'));
    store.close();
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ path: join(dataDir, 'bot.sqlite'), code: 'ERR_STORE_UNAVAILABLE' });
    expect((error as Error).message).toBe(`cannot write to the store ${join(dataDir, 'bot.sqlite')}: database or disk is full`);
  });

  it('fails saving a query with a StoreUnavailableError naming the file', () => {
    const dataDir = tempDir();
    const store = openFull(dataDir);
    const error = writeUntilFailure((i) => store.queries.save({ resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: `труба ${i}` }));
    store.close();
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ path: join(dataDir, 'bot.sqlite') });
  });

  it('still reads what it has while full', () => {
    const dataDir = tempDir();
    const before = openSqliteStore({ dataDir });
    before.settings.setUserPageSize(7, 20);
    before.close();
    const store = openFull(dataDir);
    writeUntilFailure((i) => store.settings.setUserLocale(1000 + i, 'ru'));
    expect(store.settings.user(7)).toEqual({ pageSize: 20 });
    store.close();
  });

  it('refuses to open when the migration cannot be written, naming the file', () => {
    const dataDir = tempDir();
    const error = openError({ dataDir, maxPageCount: 1 });
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(new RegExp(`^cannot open the store ${join(dataDir, 'bot.sqlite')}: database or disk is full\\. Free`));
  });
});

describe('the sqlite store refuses what it cannot open', () => {
  it('a data directory that is a regular file', () => {
    const file = join(tempDir(), 'data');
    writeFileSync(file, 'not a directory');
    const error = openError({ dataDir: file });
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({ path: file, code: 'ERR_STORE_OPEN' });
    expect((error as Error).message).toMatch(/^cannot open the store .*: not a directory\. Point DATA_DIR/);
  });

  it('a file that is not a database, and leaves it alone', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'bot.sqlite'), 'garbage '.repeat(200));
    const error = openError({ dataDir });
    expect(readFileSync(join(dataDir, 'bot.sqlite'), 'utf8')).toBe('garbage '.repeat(200));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toBe(
      `cannot open the store ${join(dataDir, 'bot.sqlite')}: file is not a database. Move it away to start with an empty store, or point DATA_DIR elsewhere.`,
    );
  });

  it('a database path that is a directory', () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'bot.sqlite'));
    const error = openError({ dataDir });
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({ path: join(dataDir, 'bot.sqlite') });
    expect((error as Error).message).toMatch(/unable to open database file\. Check that it is a file/);
  });
});

describe('a damaged store', () => {
  it('is refused at start, naming the file, when a page inside it is garbage', () => {
    const dataDir = tempDir();
    const store = openSqliteStore({ dataDir });
    for (let id = 1; id <= 2_000; id += 1) store.settings.setUserPageSize(id, 10);
    store.close();
    const file = join(dataDir, 'bot.sqlite');
    const bytes = readFileSync(file);
    // The header and the schema stay intact: only the settings' last pages are damaged.
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, bytes.length - pageSize * 2, bytes.length);
    writeFileSync(file, bytes);
    const error = openError({ dataDir });
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as StoreOpenError).message).toMatch(new RegExp(`^cannot open the store ${file}: .*damaged|malformed`));
    expect((error as StoreOpenError).hint).toBe('Move it away to start with an empty store, or point DATA_DIR elsewhere.');
  });
});
