import type { DatabaseSync } from 'node:sqlite';
import { StoreVersionError } from '../errors.ts';

// The schema's history. Entry i brings the database from `PRAGMA user_version` i to i + 1, in a
// transaction of its own. Never edit or reorder a shipped entry: append a new one.

export type Migration = { name: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'queries and settings',
    sql: `
      CREATE TABLE queries (
        key TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        filter TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX queries_last_used_at ON queries (last_used_at);
      CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        locale TEXT,
        page_size INTEGER,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE chat_settings (
        chat_id INTEGER PRIMARY KEY,
        locale TEXT,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    // Watch and notification ids are AUTOINCREMENT so that an id is never reused: a stale
    // "stop" button, or a late `delivered`, must not reach a newer row that got the same id.
    name: 'watches',
    sql: `
      CREATE TABLE watch_targets (
        key TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        filter TEXT NOT NULL,
        value TEXT NOT NULL,
        sap_id TEXT,
        snapshot TEXT,
        snapshot_at INTEGER,
        next_poll_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER
      ) STRICT;
      CREATE INDEX watch_targets_next_poll_at ON watch_targets (next_poll_at);
      CREATE TABLE watches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER,
        target_key TEXT NOT NULL REFERENCES watch_targets (key),
        created_by INTEGER NOT NULL,
        locale TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_change_at INTEGER,
        paused_at INTEGER,
        UNIQUE (chat_id, target_key)
      ) STRICT;
      CREATE INDEX watches_target_key ON watches (target_key);
      CREATE TABLE notifications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        watch_id INTEGER NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER,
        locale TEXT NOT NULL,
        target_key TEXT NOT NULL,
        changes TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER
      ) STRICT;
      CREATE INDEX notifications_next_attempt_at ON notifications (next_attempt_at);
      CREATE INDEX notifications_watch_id ON notifications (watch_id);
      CREATE INDEX notifications_chat_id ON notifications (chat_id);
    `,
  },
  {
    // What processes sharing the file agree on: leases (the one receiving updates) and values
    // written once and read by all. Flood limits stay in memory: one file serves one receiver.
    name: 'coordination',
    sql: `
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        until INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE shared_values (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    // Issue 30: the groups whose every message is read for identifiers (/autolookup), and the
    // status codes seen in records with the text the portal writes beside them.
    name: 'autolookup and status names',
    sql: `
      CREATE TABLE autolookup_chats (
        chat_id INTEGER PRIMARY KEY,
        enabled_by INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE status_names (
        resource TEXT NOT NULL,
        field TEXT NOT NULL,
        code TEXT NOT NULL,
        text TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (resource, field, code)
      ) STRICT;
      CREATE INDEX status_names_seen_at ON status_names (seen_at);
    `,
  },
  {
    // Issue 34: who admins allowed in the chat, strangers' access requests (one row per user,
    // replaced at most once a day, under an id never reused: AUTOINCREMENT), and the usage
    // counters of /stats per calendar day.
    name: 'access and usage',
    sql: `
      CREATE TABLE access_users (
        user_id INTEGER PRIMARY KEY,
        added_at INTEGER NOT NULL,
        added_by INTEGER NOT NULL,
        label TEXT
      ) STRICT;
      CREATE TABLE access_chats (
        chat_id INTEGER PRIMARY KEY,
        added_at INTEGER NOT NULL,
        added_by INTEGER NOT NULL,
        label TEXT
      ) STRICT;
      CREATE TABLE access_request_ids (id INTEGER PRIMARY KEY AUTOINCREMENT) STRICT;
      CREATE TABLE access_requests (
        user_id INTEGER PRIMARY KEY,
        id INTEGER NOT NULL UNIQUE,
        chat_id INTEGER NOT NULL,
        chat_title TEXT,
        name TEXT NOT NULL,
        username TEXT,
        language_code TEXT,
        created_at INTEGER NOT NULL,
        decision TEXT,
        decided_by INTEGER,
        decided_by_name TEXT,
        decided_at INTEGER
      ) STRICT;
      CREATE TABLE access_request_messages (
        request_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (request_id, chat_id)
      ) STRICT;
      CREATE TABLE usage_counts (
        day TEXT NOT NULL,
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        value INTEGER NOT NULL,
        PRIMARY KEY (day, name, key)
      ) STRICT;
      CREATE TABLE usage_users (
        day TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        PRIMARY KEY (day, user_id)
      ) STRICT;
      CREATE TABLE last_seen (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    // Issue 33: each chat's time zone; per watch what to be told, how, and a snooze; changes held
    // for a snooze's end and for the chats' digests; the digests. A digest's messages wait in
    // notifications beside the changes (kind 'digest', no watch): the table is rebuilt, as SQLite
    // cannot drop a NOT NULL, keeping its AUTOINCREMENT sequence so that no id is ever reused.
    name: 'time zones, digests and snoozes',
    sql: `
      ALTER TABLE chat_settings ADD COLUMN time_zone TEXT;
      ALTER TABLE watches ADD COLUMN mode TEXT NOT NULL DEFAULT 'all';
      ALTER TABLE watches ADD COLUMN delivery TEXT NOT NULL DEFAULT 'instant';
      ALTER TABLE watches ADD COLUMN snoozed_until INTEGER;
      CREATE INDEX watches_snoozed_until ON watches (snoozed_until) WHERE snoozed_until IS NOT NULL;
      CREATE TABLE notifications_next (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL DEFAULT 'change',
        watch_id INTEGER REFERENCES watches (id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER,
        locale TEXT NOT NULL,
        target_key TEXT,
        changes TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER
      ) STRICT;
      INSERT INTO notifications_next (id, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at, lease_owner, lease_until)
        SELECT id, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at, lease_owner, lease_until FROM notifications;
      UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'notifications'), 0)) WHERE name = 'notifications_next';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'notifications_next', seq FROM sqlite_sequence
        WHERE name = 'notifications' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'notifications_next');
      DROP TABLE notifications;
      ALTER TABLE notifications_next RENAME TO notifications;
      CREATE INDEX notifications_next_attempt_at ON notifications (next_attempt_at);
      CREATE INDEX notifications_watch_id ON notifications (watch_id);
      CREATE INDEX notifications_chat_id ON notifications (chat_id);
      CREATE TABLE held_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        watch_id INTEGER NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        changes TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX held_changes_watch_id ON held_changes (watch_id);
      CREATE INDEX held_changes_chat_id ON held_changes (chat_id);
      CREATE TABLE digests (
        chat_id INTEGER PRIMARY KEY,
        thread_id INTEGER,
        minute INTEGER NOT NULL,
        quiet INTEGER NOT NULL,
        locale TEXT NOT NULL,
        created_by INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        next_at INTEGER NOT NULL,
        last_sent_at INTEGER,
        missed_at INTEGER,
        paused_at INTEGER,
        lease_owner TEXT,
        lease_until INTEGER
      ) STRICT;
      CREATE INDEX digests_next_at ON digests (next_at);
    `,
  },
  {
    // Issue 32: guest cards of one record kept live (edited when the record changes) until they expire.
    name: 'guest cards',
    sql: `
      CREATE TABLE guest_cards (
        inline_message_id TEXT PRIMARY KEY,
        query_key TEXT NOT NULL,
        query TEXT NOT NULL,
        locale TEXT NOT NULL,
        shown TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        checked_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX guest_cards_due ON guest_cards (checked_at, query_key);
      CREATE INDEX guest_cards_query ON guest_cards (query_key);
    `,
  },
  {
    // Issue 32: the groups whose admins chose private answers (/answers private); public, the
    // default, keeps no row.
    name: 'private answers',
    sql: `
      CREATE TABLE private_answer_chats (
        chat_id INTEGER PRIMARY KEY,
        set_by INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
];

export const schemaVersion = (db: DatabaseSync): number => Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);

/** Brings the database up to the last migration; returns the resulting version. */
export const migrate = (db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number => {
  const known = migrations.length;
  for (;;) {
    // Checked before taking the write lock, so an up-to-date database is only read.
    const version = schemaVersion(db);
    if (version > known) throw new StoreVersionError(version, known);
    if (version === known) return version;
    db.exec('BEGIN IMMEDIATE');
    try {
      // Read again under the lock: another process may have migrated in between.
      const locked = schemaVersion(db);
      const migration = migrations[locked];
      if (locked === version && migration) {
        db.exec(migration.sql);
        db.exec(`PRAGMA user_version = ${locked + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
};
