import type { DatabaseSync } from 'node:sqlite';
import { checkClaim } from '../claims.ts';
import { immediately } from './transaction.ts';
import { NOTIFICATION_COLUMNS, NOTIFICATION_JOINS, readClaimedTarget, readNotification, TARGET_COLUMNS } from '../watch-rows.ts';
import type { ClaimedTarget, Notification, PolledChanges } from '../watch-store.ts';

// The two queues of the watches: targets due for a poll, and notifications due for sending. Each
// claim selects and leases in one BEGIN IMMEDIATE transaction, so two processes sharing the file
// never hold the same row; a lease not given back before it expires may be taken by another.

/** The queue half of a SqliteWatchStore: plain values, as node:sqlite answers at once. */
export type SqliteWatchQueue = {
  claimDue(owner: string, now: number, leaseMs: number, max: number): ClaimedTarget[];
  release(key: string, owner: string, nextPollAt: number): void;
  recordPoll(key: string, owner: string, poll: { snapshot: string; nextPollAt: number; now: number } & PolledChanges): boolean;
  wakeSnoozed(now: number, max: number, fold: (held: string[]) => string | undefined): number;
  claimNotifications(owner: string, now: number, leaseMs: number, max: number): Notification[];
  renewNotifications(owner: string, ids: readonly number[], until: number): number[];
  delivered(id: number): void;
  retryLater(id: number, at: number): void;
  postpone(id: number, at: number): void;
};

export const createSqliteWatchQueue = (db: DatabaseSync): SqliteWatchQueue => {
  // Only targets some active watch still wants: a chat that blocked the bot costs no polls.
  const selectDueTargets = db.prepare(`
    SELECT ${TARGET_COLUMNS}, t.snapshot, t.next_poll_at FROM watch_targets t
    WHERE t.next_poll_at <= :now AND (t.lease_until IS NULL OR t.lease_until <= :now)
      AND EXISTS (SELECT 1 FROM watches w WHERE w.target_key = t.key AND w.paused_at IS NULL)
    ORDER BY t.next_poll_at, t.key LIMIT :max`);
  const leaseTarget = db.prepare('UPDATE watch_targets SET lease_owner = :owner, lease_until = :until WHERE key = :key');
  const releaseTarget = db.prepare(`
    UPDATE watch_targets SET next_poll_at = :nextPollAt, lease_owner = NULL, lease_until = NULL
    WHERE key = :key AND lease_owner = :owner`);
  const storeSnapshot = db.prepare(`
    UPDATE watch_targets SET snapshot = :snapshot, snapshot_at = :now, next_poll_at = :nextPollAt, lease_owner = NULL, lease_until = NULL
    WHERE key = :key AND lease_owner = :owner`);
  // What each active watch of the target is told (null: nothing), and where it goes: pending at
  // once, held until its snooze ends, held for its chat's digest. A digest-only watch of a chat
  // without a digest (gone meanwhile) is told at once rather than never.
  const TOLD = `
    WITH told AS (
      SELECT w.id, w.chat_id, w.thread_id, w.locale, w.target_key, w.delivery, w.snoozed_until,
        CASE WHEN w.mode = 'status' THEN :statusChanges ELSE :changes END AS changes,
        EXISTS (SELECT 1 FROM digests d WHERE d.chat_id = w.chat_id) AS has_digest
      FROM watches w WHERE w.target_key = :key AND w.paused_at IS NULL
    )`;
  const insertNotifications = db.prepare(`${TOLD}
    INSERT INTO notifications (kind, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at)
    SELECT 'change', id, chat_id, thread_id, locale, target_key, changes, :now, 0, :now FROM told
    WHERE changes IS NOT NULL AND snoozed_until IS NULL AND (delivery = 'instant' OR NOT has_digest) ORDER BY id`);
  const holdForSnooze = db.prepare(`${TOLD}
    INSERT INTO held_changes (kind, watch_id, chat_id, changes, created_at)
    SELECT 'snooze', id, chat_id, changes, :now FROM told
    WHERE changes IS NOT NULL AND snoozed_until IS NOT NULL AND (delivery = 'instant' OR NOT has_digest) ORDER BY id`);
  const holdForDigest = db.prepare(`${TOLD}
    INSERT INTO held_changes (kind, watch_id, chat_id, changes, created_at)
    SELECT 'digest', id, chat_id, changes, :now FROM told WHERE changes IS NOT NULL AND has_digest ORDER BY id`);
  const markChanged = db.prepare(`
    UPDATE watches SET last_change_at = :now WHERE target_key = :key AND paused_at IS NULL
      AND (CASE WHEN mode = 'status' THEN :statusChanges ELSE :changes END) IS NOT NULL`);
  // A watch's notifications go in the order they were found: one waits while an older one of
  // the same watch is pending (due later, or held by a sender); a digest's messages likewise.
  const selectDueNotifications = db.prepare(`
    SELECT ${NOTIFICATION_COLUMNS} FROM notifications n ${NOTIFICATION_JOINS}
    WHERE n.next_attempt_at <= :now AND (n.lease_until IS NULL OR n.lease_until <= :now)
      AND NOT EXISTS (SELECT 1 FROM notifications older WHERE older.watch_id = n.watch_id AND older.id < n.id)
      AND NOT EXISTS (
        SELECT 1 FROM notifications older
        WHERE n.kind = 'digest' AND older.kind = 'digest' AND older.chat_id = n.chat_id AND older.id < n.id
      )
    ORDER BY n.id LIMIT :max`);
  const selectWaking = db.prepare('SELECT id, paused_at FROM watches WHERE snoozed_until <= :now ORDER BY snoozed_until, id LIMIT :max');
  const selectHeldSnooze = db.prepare("SELECT changes FROM held_changes WHERE watch_id = ? AND kind = 'snooze' ORDER BY id");
  const deleteHeldSnooze = db.prepare("DELETE FROM held_changes WHERE watch_id = ? AND kind = 'snooze'");
  const insertWoken = db.prepare(`
    INSERT INTO notifications (kind, watch_id, chat_id, thread_id, locale, target_key, changes, created_at, attempts, next_attempt_at)
    SELECT 'change', id, chat_id, thread_id, locale, target_key, :changes, :now, 0, :now FROM watches WHERE id = :id`);
  const wake = db.prepare('UPDATE watches SET snoozed_until = NULL WHERE id = ?');
  const leaseNotification = db.prepare('UPDATE notifications SET lease_owner = :owner, lease_until = :until WHERE id = :id');
  const renewNotifications = db.prepare(`
    UPDATE notifications SET lease_until = :until
    WHERE lease_owner = :owner AND id IN (SELECT value FROM json_each(:ids)) RETURNING id`);
  const deleteNotification = db.prepare('DELETE FROM notifications WHERE id = ?');
  const retry = db.prepare(`
    UPDATE notifications SET attempts = attempts + 1, next_attempt_at = :at, lease_owner = NULL, lease_until = NULL WHERE id = :id`);
  const postpone = db.prepare('UPDATE notifications SET next_attempt_at = :at, lease_owner = NULL, lease_until = NULL WHERE id = :id');

  return {
    /**
     * Due targets (next poll at or before `now`) that nobody holds and some active watch wants,
     * the longest due first, leased to `owner` until `now + leaseMs`. A target this version
     * cannot read is leased too, so that it does not take the first places of every claim, but
     * not returned.
     */
    claimDue(owner, now, leaseMs, max) {
      checkClaim(owner, leaseMs, max);
      return immediately(db, () => {
        const claimed: ClaimedTarget[] = [];
        for (const row of selectDueTargets.all({ now, max })) {
          leaseTarget.run({ owner, until: now + leaseMs, key: String(row.key) });
          const target = readClaimedTarget(row);
          if (target !== undefined) claimed.push(target);
        }
        return claimed;
      });
    },

    /** Gives the target back, due at `nextPollAt`; nothing when `owner` no longer holds it. */
    release(key, owner, nextPollAt) {
      releaseTarget.run({ key, owner, nextPollAt });
    },

    /**
     * Writes nothing and answers false unless `owner` still holds the target. Notifications go
     * to the target's active watches only, each in its own chat, topic and language.
     */
    recordPoll(key, owner, { snapshot, nextPollAt, now, changes, statusChanges }) {
      return immediately(db, () => {
        if (Number(storeSnapshot.run({ key, owner, snapshot, now, nextPollAt }).changes) === 0) return false;
        if (changes !== undefined || statusChanges !== undefined) {
          const told = { key, now, changes: changes ?? null, statusChanges: statusChanges ?? null };
          insertNotifications.run(told);
          holdForSnooze.run(told);
          holdForDigest.run(told);
          markChanged.run(told);
        }
        return true;
      });
    },

    /** In one transaction: the watches woken and their notifications are seen together by any other process. */
    wakeSnoozed(now, max, fold) {
      return immediately(db, () => {
        const waking = selectWaking.all({ now, max });
        for (const row of waking) {
          const id = Number(row.id);
          const held = selectHeldSnooze.all(id).map((each) => String(each.changes));
          // A paused chat's held changes were dropped with it; any left are not for it now.
          const folded = held.length > 0 && row.paused_at === null ? fold(held) : undefined;
          if (folded !== undefined) insertWoken.run({ id, changes: folded, now });
          deleteHeldSnooze.run(id);
          wake.run(id);
        }
        return waking.length;
      });
    },

    /**
     * Due notifications nobody holds, oldest first and one at a time per watch, leased to
     * `owner` until `now + leaseMs`. One whose target cannot be read is leased but not returned.
     */
    claimNotifications(owner, now, leaseMs, max) {
      checkClaim(owner, leaseMs, max);
      return immediately(db, () => {
        const claimed: Notification[] = [];
        for (const row of selectDueNotifications.all({ now, max })) {
          leaseNotification.run({ owner, until: now + leaseMs, id: Number(row.id) });
          const notification = readNotification(row);
          if (notification !== undefined) claimed.push(notification);
        }
        return claimed;
      });
    },

    renewNotifications(owner, ids, until) {
      if (ids.length === 0) return [];
      return renewNotifications.all({ owner, until, ids: JSON.stringify(ids) }).map((row) => Number(row.id));
    },

    delivered(id) {
      deleteNotification.run(id);
    },
    /** Counts an attempt and gives the notification back, due at `at`. */
    retryLater(id, at) {
      retry.run({ id, at });
    },
    /** Gives the notification back, due at `at`, counting no attempt. */
    postpone(id, at) {
      postpone.run({ id, at });
    },
  };
};
