import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../../src/store/errors.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import type { Query } from '../../../src/query.ts';
import { useTempDirs, withRawDb } from '../support.ts';

const tempDir = useTempDirs();
const query: Query = { resource: 'order', filter: 'SAP_ID', value: '4500012345' };

describe('the sqlite store', () => {
  it('creates a missing data directory and its database file', () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const store = openSqliteStore({ dataDir });
    store.close();
    expect(existsSync(join(dataDir, 'bot.sqlite'))).toBe(true);
    expect(withRawDb(dataDir, (db) => db.prepare('PRAGMA journal_mode').get()?.journal_mode)).toBe('wal');
  });

  it('keeps settings and queries across a restart', () => {
    const dataDir = tempDir();
    const before = openSqliteStore({ dataDir });
    before.settings.setUserLocale(42, 'en');
    before.settings.setUserPageSize(42, 20);
    before.settings.setChatLocale(-1001234567890, 'ru');
    const key = before.queries.save(query);
    before.close();

    const after = openSqliteStore({ dataDir });
    expect(after.settings.user(42)).toEqual({ locale: 'en', pageSize: 20 });
    expect(after.settings.chatLocale(-1001234567890)).toBe('ru');
    expect(after.queries.load(key)).toEqual(query);
    after.close();
  });

  it('uses the file name given', () => {
    const dataDir = tempDir();
    openSqliteStore({ dataDir, fileName: 'other.sqlite' }).close();
    expect(existsSync(join(dataDir, 'other.sqlite'))).toBe(true);
    expect(existsSync(join(dataDir, 'bot.sqlite'))).toBe(false);
  });

  it('works in memory, creating no directory', () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    store.settings.setUserPageSize(1, 5);
    expect(store.settings.user(1)).toEqual({ pageSize: 5 });
    expect(store.queries.load(store.queries.save(query))).toEqual(query);
    store.close();
    expect(existsSync(':memory:')).toBe(false);
  });

  it('can be closed twice, and is unusable after', () => {
    const store = openSqliteStore({ dataDir: tempDir() });
    store.close();
    expect(() => store.close()).not.toThrow();
    expect(() => store.settings.user(1)).toThrow();
  });

  it('refuses a database written by a newer version and leaves it as it was', () => {
    const dataDir = tempDir();
    withRawDb(dataDir, (db) => db.exec('CREATE TABLE future (id INTEGER); PRAGMA user_version = 70;'));
    expect(() => openSqliteStore({ dataDir })).toThrow(StoreVersionError);
    const after = withRawDb(dataDir, (db) => ({
      version: db.prepare('PRAGMA user_version').get()?.user_version,
      journal: db.prepare('PRAGMA journal_mode').get()?.journal_mode,
      tables: db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((row) => row.name),
    }));
    expect(after).toEqual({ version: 70, journal: 'delete', tables: ['future'] });
  });
});
