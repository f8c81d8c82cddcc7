// The PostgreSQL schema's history (src/store/postgres/migrations.ts runs it). Entry i brings the
// database from version i to i + 1. Never edit or reorder a shipped entry: append a new one.
// Times are milliseconds since the epoch (BIGINT, read back as numbers by the pool), as in the
// sqlite store, so both backends share one contract.

export type PostgresMigration = { name: string; sql: string };

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    // Watch and notification ids come from identity columns, never reused: a stale "stop"
    // button, or a late `delivered`, must not reach a newer row that got the same id.
    name: 'queries, settings, watches, coordination and limits',
    sql: `
      CREATE TABLE queries (
        key TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        filter TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT NOT NULL
      );
      CREATE INDEX queries_last_used_at ON queries (last_used_at);
      CREATE TABLE user_settings (
        user_id BIGINT PRIMARY KEY,
        locale TEXT,
        page_size INTEGER,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE chat_settings (
        chat_id BIGINT PRIMARY KEY,
        locale TEXT,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE watch_targets (
        key TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        filter TEXT NOT NULL,
        value TEXT NOT NULL,
        sap_id TEXT,
        snapshot TEXT,
        snapshot_at BIGINT,
        next_poll_at BIGINT NOT NULL,
        lease_owner TEXT,
        lease_until BIGINT
      );
      CREATE INDEX watch_targets_next_poll_at ON watch_targets (next_poll_at);
      CREATE TABLE watches (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        chat_id BIGINT NOT NULL,
        thread_id BIGINT,
        target_key TEXT NOT NULL REFERENCES watch_targets (key),
        created_by BIGINT NOT NULL,
        locale TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_change_at BIGINT,
        paused_at BIGINT,
        UNIQUE (chat_id, target_key)
      );
      CREATE INDEX watches_target_key ON watches (target_key);
      CREATE TABLE notifications (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        watch_id BIGINT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        chat_id BIGINT NOT NULL,
        thread_id BIGINT,
        locale TEXT NOT NULL,
        target_key TEXT NOT NULL,
        changes TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        lease_owner TEXT,
        lease_until BIGINT
      );
      CREATE INDEX notifications_next_attempt_at ON notifications (next_attempt_at);
      CREATE INDEX notifications_watch_id ON notifications (watch_id);
      CREATE INDEX notifications_chat_id ON notifications (chat_id);
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        until BIGINT NOT NULL
      );
      CREATE TABLE shared_values (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      -- Flood-limit windows and refusal quiet periods: short-lived, rebuilt by use, not worth a
      -- write-ahead log (UNLOGGED: emptied after a crash of the server, which only forgives).
      CREATE UNLOGGED TABLE rate_windows (
        key TEXT PRIMARY KEY,
        started_at BIGINT NOT NULL,
        ends_at BIGINT NOT NULL,
        hits INTEGER NOT NULL
      );
      CREATE INDEX rate_windows_ends_at ON rate_windows (ends_at);
      CREATE UNLOGGED TABLE quiet_periods (
        key TEXT PRIMARY KEY,
        until BIGINT NOT NULL
      );
      CREATE INDEX quiet_periods_until ON quiet_periods (until);
    `,
  },
  {
    // Issue 30: the groups whose every message is read for identifiers (/autolookup), and the
    // status codes seen in records with the text the portal writes beside them.
    name: 'autolookup and status names',
    sql: `
      CREATE TABLE autolookup_chats (
        chat_id BIGINT PRIMARY KEY,
        enabled_by BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE status_names (
        resource TEXT NOT NULL,
        field TEXT NOT NULL,
        code TEXT NOT NULL,
        text TEXT NOT NULL,
        seen_at BIGINT NOT NULL,
        PRIMARY KEY (resource, field, code)
      );
      CREATE INDEX status_names_seen_at ON status_names (seen_at);
    `,
  },
  {
    // Issue 34: who admins allowed in the chat, strangers' access requests (one row per user,
    // replaced at most once a day, under an id from a sequence: never reused), and the usage
    // counters of /stats per calendar day.
    name: 'access and usage',
    sql: `
      CREATE TABLE access_users (
        user_id BIGINT PRIMARY KEY,
        added_at BIGINT NOT NULL,
        added_by BIGINT NOT NULL,
        label TEXT
      );
      CREATE TABLE access_chats (
        chat_id BIGINT PRIMARY KEY,
        added_at BIGINT NOT NULL,
        added_by BIGINT NOT NULL,
        label TEXT
      );
      CREATE SEQUENCE access_request_ids;
      CREATE TABLE access_requests (
        user_id BIGINT PRIMARY KEY,
        id BIGINT NOT NULL UNIQUE,
        chat_id BIGINT NOT NULL,
        chat_title TEXT,
        name TEXT NOT NULL,
        username TEXT,
        language_code TEXT,
        created_at BIGINT NOT NULL,
        decision TEXT,
        decided_by BIGINT,
        decided_by_name TEXT,
        decided_at BIGINT
      );
      CREATE TABLE access_request_messages (
        request_id BIGINT NOT NULL,
        chat_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,
        PRIMARY KEY (request_id, chat_id)
      );
      CREATE TABLE usage_counts (
        day TEXT NOT NULL,
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        value BIGINT NOT NULL,
        PRIMARY KEY (day, name, key)
      );
      CREATE TABLE usage_users (
        day TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        PRIMARY KEY (day, user_id)
      );
      CREATE TABLE last_seen (
        id BIGINT PRIMARY KEY,
        at BIGINT NOT NULL
      );
    `,
  },
  {
    // Issue 33: each chat's time zone; per watch what to be told, how, and a snooze; changes held
    // for a snooze's end and for the chats' digests; the digests, whose messages wait in
    // notifications beside the changes (kind 'digest', no watch).
    name: 'time zones, digests and snoozes',
    sql: `
      ALTER TABLE chat_settings ADD COLUMN time_zone TEXT;
      ALTER TABLE watches ADD COLUMN mode TEXT NOT NULL DEFAULT 'all',
        ADD COLUMN delivery TEXT NOT NULL DEFAULT 'instant',
        ADD COLUMN snoozed_until BIGINT;
      CREATE INDEX watches_snoozed_until ON watches (snoozed_until) WHERE snoozed_until IS NOT NULL;
      ALTER TABLE notifications ADD COLUMN kind TEXT NOT NULL DEFAULT 'change',
        ALTER COLUMN watch_id DROP NOT NULL,
        ALTER COLUMN target_key DROP NOT NULL;
      CREATE TABLE held_changes (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind TEXT NOT NULL,
        watch_id BIGINT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        chat_id BIGINT NOT NULL,
        changes TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX held_changes_watch_id ON held_changes (watch_id);
      CREATE INDEX held_changes_chat_id ON held_changes (chat_id);
      CREATE TABLE digests (
        chat_id BIGINT PRIMARY KEY,
        thread_id BIGINT,
        minute INTEGER NOT NULL,
        quiet BOOLEAN NOT NULL,
        locale TEXT NOT NULL,
        created_by BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        next_at BIGINT NOT NULL,
        last_sent_at BIGINT,
        missed_at BIGINT,
        paused_at BIGINT,
        lease_owner TEXT,
        lease_until BIGINT
      );
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
        expires_at BIGINT NOT NULL,
        checked_at BIGINT NOT NULL
      );
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
        chat_id BIGINT PRIMARY KEY,
        set_by BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
    `,
  },
];
