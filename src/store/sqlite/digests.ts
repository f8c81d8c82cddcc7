import type { DatabaseSync } from 'node:sqlite';
import { checkId, checkLocale } from '../checks.ts';
import { checkClaim } from '../claims.ts';
import { immediately } from './transaction.ts';
import { DIGEST_COLUMNS, readDigest, readWatch, WATCH_COLUMNS } from '../watch-rows.ts';
import type { Digest, DigestInput, NewDigest } from '../watch-store.ts';

// The chats' daily digests on node:sqlite: when each is due, claimed with a lease like the
// polls, and prepared in one BEGIN IMMEDIATE transaction that queues its messages and forgets
// the changes it told, so that a digest is prepared once however many processes share the file.

export type SqliteDigests = {
  digest(chatId: number): Digest | undefined;
  setDigest(digest: NewDigest): Digest;
  rescheduleDigest(chatId: number, nextAt: number): void;
  removeDigest(chatId: number): number | undefined;
  claimDigests(owner: string, now: number, leaseMs: number, max: number): Digest[];
  prepareDigest(chatId: number, owner: string, at: { now: number; nextAt: number }, build: (input: DigestInput) => string[]): number | undefined;
  skipDigest(chatId: number, owner: string, nextAt: number): boolean;
  releaseDigest(chatId: number, owner: string, retryAt: number): void;
};

export const createSqliteDigests = (db: DatabaseSync): SqliteDigests => {
  const selectDigest = db.prepare(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.chat_id = ?`);
  const upsertDigest = db.prepare(`
    INSERT INTO digests (chat_id, thread_id, minute, quiet, locale, created_by, created_at, next_at)
    VALUES (:chatId, :threadId, :minute, :quiet, :locale, :createdBy, :now, :nextAt)
    ON CONFLICT (chat_id) DO UPDATE SET thread_id = excluded.thread_id, minute = excluded.minute, quiet = excluded.quiet,
      locale = excluded.locale, created_by = excluded.created_by, next_at = excluded.next_at`);
  const reschedule = db.prepare('UPDATE digests SET next_at = ? WHERE chat_id = ?');
  const deleteDigest = db.prepare('DELETE FROM digests WHERE chat_id = ?');
  const deleteHeld = db.prepare("DELETE FROM held_changes WHERE chat_id = ? AND kind = 'digest'");
  const undoDigestOnly = db.prepare("UPDATE watches SET delivery = 'instant' WHERE chat_id = ? AND delivery = 'digest'");
  const selectDue = db.prepare(`
    SELECT ${DIGEST_COLUMNS} FROM digests d
    WHERE d.next_at <= :now AND d.paused_at IS NULL AND (d.lease_until IS NULL OR d.lease_until <= :now)
    ORDER BY d.next_at, d.chat_id LIMIT :max`);
  const lease = db.prepare('UPDATE digests SET lease_owner = :owner, lease_until = :until WHERE chat_id = :chatId');
  const held = db.prepare('SELECT lease_owner FROM digests WHERE chat_id = ? AND lease_owner = ?');
  const selectWatches = db.prepare(`
    SELECT ${WATCH_COLUMNS}, t.snapshot FROM watches w JOIN watch_targets t ON t.key = w.target_key
    WHERE w.chat_id = ? ORDER BY w.created_at, w.id`);
  const selectHeld = db.prepare(`
    SELECT h.id, h.watch_id, h.changes FROM held_changes h JOIN watches w ON w.id = h.watch_id
    WHERE h.chat_id = ? AND h.kind = 'digest' AND w.snoozed_until IS NULL ORDER BY h.id`);
  const forgetHeld = db.prepare('DELETE FROM held_changes WHERE id IN (SELECT value FROM json_each(?))');
  const queueMessage = db.prepare(`
    INSERT INTO notifications (kind, chat_id, thread_id, locale, changes, created_at, attempts, next_attempt_at)
    VALUES ('digest', :chatId, :threadId, :locale, :message, :now, 0, :now)`);
  const prepared = db.prepare(`
    UPDATE digests SET next_at = :nextAt, last_sent_at = :now, missed_at = NULL, lease_owner = NULL, lease_until = NULL
    WHERE chat_id = :chatId`);
  const skipped = db.prepare(`
    UPDATE digests SET missed_at = coalesce(missed_at, next_at), next_at = :nextAt, lease_owner = NULL, lease_until = NULL
    WHERE chat_id = :chatId AND lease_owner = :owner`);
  const released = db.prepare('UPDATE digests SET next_at = :retryAt, lease_owner = NULL, lease_until = NULL WHERE chat_id = :chatId AND lease_owner = :owner');

  const digest = (chatId: number): Digest | undefined => readDigest(selectDigest.get(checkId(chatId)));

  return {
    digest,
    setDigest(next) {
      const chatId = checkId(next.chatId);
      upsertDigest.run({
        chatId,
        threadId: next.threadId === undefined ? null : checkId(next.threadId),
        minute: next.minute,
        quiet: next.quiet ? 1 : 0,
        locale: checkLocale(next.locale),
        createdBy: checkId(next.createdBy),
        now: next.now,
        nextAt: next.nextAt,
      });
      const saved = digest(chatId);
      if (!saved) throw new Error(`the digest of chat ${chatId} cannot be read back`);
      return saved;
    },
    rescheduleDigest(chatId, nextAt) {
      reschedule.run(nextAt, checkId(chatId));
    },
    removeDigest(chatId) {
      return immediately(db, () => {
        if (Number(deleteDigest.run(checkId(chatId)).changes) === 0) return undefined;
        deleteHeld.run(chatId);
        return Number(undoDigestOnly.run(chatId).changes);
      });
    },

    /** Due digests nobody holds, the longest due first; one this version cannot read is leased, not returned. */
    claimDigests(owner, now, leaseMs, max) {
      checkClaim(owner, leaseMs, max);
      return immediately(db, () => {
        const claimed: Digest[] = [];
        for (const row of selectDue.all({ now, max })) {
          lease.run({ owner, until: now + leaseMs, chatId: Number(row.chat_id) });
          const found = readDigest(row);
          if (found) claimed.push(found);
        }
        return claimed;
      });
    },

    prepareDigest(chatId, owner, { now, nextAt }, build) {
      return immediately(db, () => {
        const current = digest(chatId);
        if (!current || !held.get(checkId(chatId), owner)) return undefined;
        const heldRows = selectHeld.all(chatId);
        const input: DigestInput = {
          digest: current,
          watches: selectWatches.all(chatId).flatMap((row) => {
            const watch = readWatch(row);
            return watch ? [{ watch, ...(typeof row.snapshot === 'string' && { snapshot: row.snapshot }) }] : [];
          }),
          held: heldRows.map((row) => ({ watchId: Number(row.watch_id), changes: String(row.changes) })),
        };
        const messages = build(input);
        for (const message of messages) {
          queueMessage.run({ chatId, threadId: current.threadId ?? null, locale: current.locale, message, now });
        }
        forgetHeld.run(JSON.stringify(heldRows.map((row) => Number(row.id))));
        prepared.run({ chatId, nextAt, now });
        return messages.length;
      });
    },
    skipDigest: (chatId, owner, nextAt) => Number(skipped.run({ chatId: checkId(chatId), owner, nextAt }).changes) > 0,
    releaseDigest(chatId, owner, retryAt) {
      released.run({ chatId: checkId(chatId), owner, retryAt });
    },
  };
};
