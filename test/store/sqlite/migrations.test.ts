import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreVersionError } from '../../../src/store/errors.ts';
import { migrate, MIGRATIONS, schemaVersion, type Migration } from '../../../src/store/sqlite/migrations.ts';

const open: DatabaseSync[] = [];
const memoryDb = () => {
  const db = new DatabaseSync(':memory:');
  open.push(db);
  return db;
};
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const tables = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);
const columns = (db: DatabaseSync, table: string) =>
  db
    .prepare(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`)
    .all()
    .map((row) => row.name);

describe('migrations', () => {
  it('builds the schema on an empty database and records its version', () => {
    const db = memoryDb();
    expect(schemaVersion(db)).toBe(0);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    // sqlite_sequence is SQLite's own, kept for the AUTOINCREMENT ids.
    expect(tables(db)).toEqual([
      'access_chats', 'access_request_ids', 'access_request_messages', 'access_requests', 'access_users', 'autolookup_chats', 'chat_settings', 'digests',
      'guest_cards', 'held_changes', 'last_seen', 'leases', 'notifications', 'private_answer_chats', 'queries', 'shared_values', 'sqlite_sequence',
      'status_names', 'usage_counts', 'usage_users', 'user_settings', 'watch_targets', 'watches',
    ]);
    expect(columns(db, 'autolookup_chats')).toEqual(['chat_id', 'enabled_by', 'updated_at']);
    expect(columns(db, 'status_names')).toEqual(['resource', 'field', 'code', 'text', 'seen_at']);
    expect(columns(db, 'leases')).toEqual(['name', 'owner', 'until']);
    expect(columns(db, 'shared_values')).toEqual(['key', 'value', 'updated_at']);
    expect(columns(db, 'queries')).toEqual(['key', 'resource', 'filter', 'value', 'created_at', 'last_used_at']);
    expect(columns(db, 'user_settings')).toEqual(['user_id', 'locale', 'page_size', 'updated_at']);
    expect(columns(db, 'chat_settings')).toEqual(['chat_id', 'locale', 'updated_at', 'time_zone']);
    expect(columns(db, 'watch_targets')).toEqual([
      'key', 'resource', 'filter', 'value', 'sap_id', 'snapshot', 'snapshot_at', 'next_poll_at', 'lease_owner', 'lease_until',
    ]);
    expect(columns(db, 'watches')).toEqual([
      'id', 'chat_id', 'thread_id', 'target_key', 'created_by', 'locale', 'created_at', 'last_change_at', 'paused_at', 'mode', 'delivery', 'snoozed_until',
    ]);
    expect(columns(db, 'notifications')).toEqual([
      'id', 'kind', 'watch_id', 'chat_id', 'thread_id', 'locale', 'target_key', 'changes', 'created_at', 'attempts', 'next_attempt_at', 'lease_owner', 'lease_until',
    ]);
    expect(columns(db, 'held_changes')).toEqual(['id', 'kind', 'watch_id', 'chat_id', 'changes', 'created_at']);
    expect(columns(db, 'digests')).toEqual([
      'chat_id', 'thread_id', 'minute', 'quiet', 'locale', 'created_by', 'created_at', 'next_at', 'last_sent_at', 'missed_at', 'paused_at', 'lease_owner', 'lease_until',
    ]);
  });

  it('adds the watch tables to a database of version 1, keeping what it holds', () => {
    const db = memoryDb();
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toBe(1);
    db.exec("INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0)");
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT locale FROM chat_settings').get()?.locale).toBe('en');
    expect(db.prepare('SELECT count(*) AS n FROM watches').get()?.n).toBe(0);
  });

  it('adds the coordination tables to a database of version 2, keeping its watches', () => {
    const db = memoryDb();
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toBe(2);
    db.exec("INSERT INTO watch_targets (key, resource, filter, value, next_poll_at) VALUES ('k', 'order', 'SAP_ID', '1', 0)");
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT count(*) AS n FROM watch_targets').get()?.n).toBe(1);
    expect(() => db.exec("INSERT INTO leases (name, owner, until) VALUES ('polling', 'a', 'soon')")).toThrow(/cannot store TEXT value in INTEGER column/);
  });

  it('adds the autolookup and status tables to a database of version 3, keeping what it holds', () => {
    const db = memoryDb();
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toBe(3);
    db.exec("INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0)");
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT locale FROM chat_settings').get()?.locale).toBe('en');
    expect(() => db.exec("INSERT INTO autolookup_chats (chat_id, enabled_by, updated_at) VALUES (-100, 1, 'now')")).toThrow(/cannot store TEXT value in INTEGER column/);
  });

  it('adds time zones, digests and snoozes to a database of version 3, keeping its notifications and never reusing their ids', () => {
    const db = memoryDb();
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toBe(3);
    db.exec(`
      INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0);
      INSERT INTO watch_targets (key, resource, filter, value, next_poll_at) VALUES ('k', 'order', 'SAP_ID', '1', 0);
      INSERT INTO watches (chat_id, target_key, created_by, locale, created_at) VALUES (-100, 'k', 7, 'en', 0);
      INSERT INTO notifications (watch_id, chat_id, locale, target_key, changes, created_at, next_attempt_at) VALUES (1, -100, 'en', 'k', 'one', 0, 0), (1, -100, 'en', 'k', 'two', 0, 0), (1, -100, 'en', 'k', 'three', 0, 0);
      DELETE FROM notifications WHERE changes = 'three';
    `);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT id, kind, watch_id, changes FROM notifications ORDER BY id').all().map((row) => ({ ...row }))).toEqual([
      { id: 1, kind: 'change', watch_id: 1, changes: 'one' },
      { id: 2, kind: 'change', watch_id: 1, changes: 'two' },
    ]);
    expect({ ...db.prepare("SELECT mode, delivery, snoozed_until FROM watches").get() }).toEqual({ mode: 'all', delivery: 'instant', snoozed_until: null });
    expect({ ...db.prepare('SELECT locale, time_zone FROM chat_settings').get() }).toEqual({ locale: 'en', time_zone: null });
    // Id 3 was used and deleted before the rebuild: the next is 4, never 3 again.
    db.exec("INSERT INTO notifications (kind, chat_id, locale, changes, created_at, next_attempt_at) VALUES ('digest', -100, 'en', 'part', 0, 0)");
    expect(db.prepare("SELECT id FROM notifications WHERE kind = 'digest'").get()?.id).toBe(4);
    // A watch's notifications still go with it.
    db.exec('DELETE FROM watches');
    expect(db.prepare('SELECT count(*) AS n FROM notifications').get()?.n).toBe(1);
  });

  it('makes the watch tables strict', () => {
    const db = memoryDb();
    migrate(db);
    expect(() => db.exec("INSERT INTO watch_targets (key, resource, filter, value, next_poll_at) VALUES ('k', 'order', 'SAP_ID', '1', 'soon')")).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
  });

  it('leaves an up-to-date database as it is', () => {
    const db = memoryDb();
    migrate(db);
    db.exec("INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0)");
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT count(*) AS n FROM chat_settings').get()?.n).toBe(1);
  });

  it('applies only the migrations appended since the last run', () => {
    const db = memoryDb();
    migrate(db);
    db.exec("INSERT INTO chat_settings (chat_id, locale, updated_at) VALUES (-100, 'en', 0)");
    const next: Migration = { name: 'chat note', sql: 'ALTER TABLE chat_settings ADD COLUMN note TEXT;' };
    expect(migrate(db, [...MIGRATIONS, next])).toBe(MIGRATIONS.length + 1);
    expect(columns(db, 'chat_settings').at(-1)).toBe('note');
    expect(db.prepare('SELECT locale FROM chat_settings').get()?.locale).toBe('en');
  });

  it('rolls a failing migration back whole, keeping the version before it', () => {
    const db = memoryDb();
    const broken: Migration = { name: 'broken', sql: 'CREATE TABLE half_done (id INTEGER); INSERT INTO nowhere VALUES (1);' };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no such table: nowhere/);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(tables(db)).not.toContain('half_done');
    expect(db.isTransaction).toBe(false);
  });

  it('refuses a database from a newer version without touching it', () => {
    const db = memoryDb();
    db.exec('PRAGMA user_version = 70');
    const error = (() => {
      try {
        migrate(db);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(StoreVersionError);
    expect(error).toMatchObject({ code: 'ERR_STORE_VERSION', found: 70, known: MIGRATIONS.length });
    expect((error as Error).message).toMatch(new RegExp(`schema version 70.*only up to ${MIGRATIONS.length}.*newer version.*another data directory \\(DATA_DIR\\)`));
    expect(tables(db)).toEqual([]);
    expect(schemaVersion(db)).toBe(70);
  });
});
