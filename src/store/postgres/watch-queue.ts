import type pg from 'pg';
import { checkClaim } from '../claims.ts';
import { inTransaction } from './pool.ts';
import { NOTIFICATION_COLUMNS, NOTIFICATION_JOINS, readClaimedTarget, readNotification, TARGET_COLUMNS } from '../watch-rows.ts';
import type { ClaimedTarget, Notification, WatchStore } from '../watch-store.ts';

// The two queues of the watches on PostgreSQL, shared by replicas: targets due for a poll, and
// notifications due for sending. Each claim is one statement that locks the rows it picks with
// FOR UPDATE SKIP LOCKED and leases them: two replicas claiming at once skip each other's rows
// instead of waiting for them, and never hold the same one. A lease not given back before it
// expires may be taken by another replica; the owner's name is the lease's token, so a poll
// recorded after the lease was lost writes nothing.

export type PostgresWatchQueue = Pick<
  WatchStore,
  'claimDue' | 'release' | 'recordPoll' | 'claimNotifications' | 'renewNotifications' | 'delivered' | 'retryLater' | 'postpone' | 'wakeSnoozed'
>;

type Row = Record<string, unknown>;

// Errors a transaction may meet only because another replica wrote the same rows at the same
// moment (a serialization failure, a deadlock, a key the other one inserted or a row it removed
// first): run again, it sees what the other committed and decides anew.
const RACE_CODES = new Set(['40001', '40P01', '23505', '23503']);
const ATTEMPTS = 5;

const lostRace = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' && RACE_CODES.has(error.code);

/** `inTransaction`, run again (a few times) when it lost a race with another replica. */
export const inRetriedTransaction = async <T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await inTransaction(pool, work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostRace(error)) throw error;
    }
  }
};

// Only targets some active watch wants: a chat that blocked the bot costs no polls. The rows are
// picked, locked and leased in one statement; under READ COMMITTED a row another replica leased
// meanwhile is checked again once its lock is free, and left out as no longer free.
const CLAIM_DUE = `
  WITH due AS (
    SELECT key FROM watch_targets t
    WHERE t.next_poll_at <= $1 AND (t.lease_until IS NULL OR t.lease_until <= $1)
      AND EXISTS (SELECT 1 FROM watches w WHERE w.target_key = t.key AND w.paused_at IS NULL)
    ORDER BY t.next_poll_at, t.key LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), leased AS (
    UPDATE watch_targets t SET lease_owner = $3, lease_until = $4 FROM due WHERE t.key = due.key
    RETURNING t.key, t.resource, t.filter, t.value, t.sap_id, t.snapshot, t.next_poll_at
  )
  SELECT ${TARGET_COLUMNS}, t.snapshot, t.next_poll_at FROM leased t ORDER BY t.next_poll_at, t.key`;

const RELEASE = `
  UPDATE watch_targets SET next_poll_at = $3, lease_owner = NULL, lease_until = NULL
  WHERE key = $1 AND lease_owner = $2`;

const STORE_SNAPSHOT = `
  UPDATE watch_targets SET snapshot = $3, snapshot_at = $4, next_poll_at = $5, lease_owner = NULL, lease_until = NULL
  WHERE key = $1 AND lease_owner = $2`;

// What each active watch of the target is told ($3 all changes, $4 a status-only one's; null:
// nothing), and where it goes: pending at once, held until its snooze ends, held for its chat's
// digest. A digest-only watch of a chat without a digest (gone meanwhile) is told at once rather
// than never. The watches' update locks them: a chat paused at the same moment either waits for
// this poll (and then drops what it queued) or is paused first (and gets none).
const QUEUE_CHANGES = `
  WITH changed AS (
    UPDATE watches w SET last_change_at = $2
    WHERE w.target_key = $1 AND w.paused_at IS NULL AND (CASE WHEN w.mode = 'status' THEN $4::text ELSE $3::text END) IS NOT NULL
    RETURNING w.id, w.chat_id, w.thread_id, w.locale, w.target_key, w.delivery, w.snoozed_until,
      CASE WHEN w.mode = 'status' THEN $4::text ELSE $3::text END AS changes,
      EXISTS (SELECT 1 FROM digests d WHERE d.chat_id = w.chat_id) AS has_digest
  ), pending AS (
    INSERT INTO notifications (kind, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at)
    SELECT 'change', id, chat_id, thread_id, locale, target_key, changes, $2, 0, $2 FROM changed
    WHERE snoozed_until IS NULL AND (delivery = 'instant' OR NOT has_digest) ORDER BY id
  ), snoozed AS (
    INSERT INTO held_changes (kind, watch_id, chat_id, changes, created_at)
    SELECT 'snooze', id, chat_id, changes, $2 FROM changed
    WHERE snoozed_until IS NOT NULL AND (delivery = 'instant' OR NOT has_digest) ORDER BY id
  )
  INSERT INTO held_changes (kind, watch_id, chat_id, changes, created_at)
  SELECT 'digest', id, chat_id, changes, $2 FROM changed WHERE has_digest ORDER BY id`;

// Watches whose snooze ended, each locked until its transaction ends: another replica skips it.
const WAKING = `
  SELECT id, paused_at FROM watches WHERE snoozed_until <= $1 ORDER BY snoozed_until, id LIMIT $2 FOR UPDATE SKIP LOCKED`;
const WOKEN = `
  INSERT INTO notifications (kind, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at)
  SELECT 'change', id, chat_id, thread_id, locale, target_key, $2, $3, 0, $3 FROM watches WHERE id = $1`;

// A watch's notifications go in the order they were found: one waits while an older one of the
// same watch is pending (due later, or held by a sender, maybe in another replica); a digest's
// messages likewise.
const CLAIM_NOTIFICATIONS = `
  WITH due AS (
    SELECT n.id FROM notifications n
    WHERE n.next_attempt_at <= $1 AND (n.lease_until IS NULL OR n.lease_until <= $1)
      AND NOT EXISTS (SELECT 1 FROM notifications older WHERE older.watch_id = n.watch_id AND older.id < n.id)
      AND NOT EXISTS (
        SELECT 1 FROM notifications older
        WHERE n.kind = 'digest' AND older.kind = 'digest' AND older.chat_id = n.chat_id AND older.id < n.id
      )
    ORDER BY n.id LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), leased AS (
    UPDATE notifications n SET lease_owner = $3, lease_until = $4 FROM due WHERE n.id = due.id
    RETURNING n.*
  )
  SELECT ${NOTIFICATION_COLUMNS} FROM leased n ${NOTIFICATION_JOINS} ORDER BY n.id`;

export const createPostgresWatchQueue = (pool: pg.Pool): PostgresWatchQueue => ({
  /**
   * Due targets nobody holds and some active watch wants, the longest due first, leased to
   * `owner` until `now + leaseMs`. A target this version cannot read is leased too, so that it
   * does not take the first places of every claim, but not returned.
   */
  async claimDue(owner, now, leaseMs, max) {
    checkClaim(owner, leaseMs, max);
    if (max === 0) return [];
    const { rows } = await pool.query<Row>(CLAIM_DUE, [now, max, owner, now + leaseMs]);
    return rows.map(readClaimedTarget).filter((claimed): claimed is ClaimedTarget => claimed !== undefined);
  },

  /** Gives the target back, due at `nextPollAt`; nothing when `owner` no longer holds it. */
  async release(key, owner, nextPollAt) {
    await pool.query(RELEASE, [key, owner, nextPollAt]);
  },

  /**
   * Writes nothing and answers false unless `owner` still holds the target: the snapshot's
   * update locks the target row, so a replica taking it over waits for this transaction, and
   * this one finds the lease gone when the other took it first.
   */
  async recordPoll(key, owner, { snapshot, nextPollAt, now, changes, statusChanges }) {
    return inRetriedTransaction(pool, async (client) => {
      const stored = await client.query(STORE_SNAPSHOT, [key, owner, snapshot, now, nextPollAt]);
      if (stored.rowCount === 0) return false;
      if (changes !== undefined || statusChanges !== undefined) await client.query(QUEUE_CHANGES, [key, now, changes ?? null, statusChanges ?? null]);
      return true;
    });
  },

  /** In one transaction: the watches woken and their notifications are seen together by the other replicas. */
  async wakeSnoozed(now, max, fold) {
    return inRetriedTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: number; paused_at: number | null }>(WAKING, [now, max]);
      for (const row of rows) {
        const held = await client.query<{ id: number; changes: string }>("DELETE FROM held_changes WHERE watch_id = $1 AND kind = 'snooze' RETURNING id, changes", [row.id]);
        // RETURNING keeps no order: the oldest first, as they were found.
        const ordered = held.rows.sort((a, b) => a.id - b.id).map((each) => each.changes);
        // A paused chat's held changes were dropped with it; any left are not for it now.
        const folded = ordered.length > 0 && row.paused_at === null ? fold(ordered) : undefined;
        if (folded !== undefined) await client.query(WOKEN, [row.id, folded, now]);
        await client.query('UPDATE watches SET snoozed_until = NULL WHERE id = $1', [row.id]);
      }
      return rows.length;
    });
  },

  /**
   * Due notifications nobody holds, oldest first and one at a time per watch, leased to `owner`
   * until `now + leaseMs`. One whose target cannot be read is leased but not returned.
   */
  async claimNotifications(owner, now, leaseMs, max) {
    checkClaim(owner, leaseMs, max);
    if (max === 0) return [];
    const { rows } = await pool.query<Row>(CLAIM_NOTIFICATIONS, [now, max, owner, now + leaseMs]);
    return rows.map(readNotification).filter((notification): notification is Notification => notification !== undefined);
  },

  async renewNotifications(owner, ids, until) {
    if (ids.length === 0) return [];
    const { rows } = await pool.query<{ id: number }>(
      'UPDATE notifications SET lease_until = $3 WHERE id = ANY($1::bigint[]) AND lease_owner = $2 RETURNING id',
      [ids, owner, until],
    );
    return rows.map((row) => row.id);
  },

  async delivered(id) {
    await pool.query('DELETE FROM notifications WHERE id = $1', [id]);
  },
  /** Counts an attempt and gives the notification back, due at `at`. */
  async retryLater(id, at) {
    await pool.query('UPDATE notifications SET attempts = attempts + 1, next_attempt_at = $2, lease_owner = NULL, lease_until = NULL WHERE id = $1', [id, at]);
  },
  /** Gives the notification back, due at `at`, counting no attempt. */
  async postpone(id, at) {
    await pool.query('UPDATE notifications SET next_attempt_at = $2, lease_owner = NULL, lease_until = NULL WHERE id = $1', [id, at]);
  },
});
