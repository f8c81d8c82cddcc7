import type pg from 'pg';
import { checkId, checkLocale } from '../checks.ts';
import { checkClaim } from '../claims.ts';
import { DIGEST_COLUMNS, readDigest, readWatch, WATCH_COLUMNS } from '../watch-rows.ts';
import type { Digest, DigestInput, WatchStore } from '../watch-store.ts';
import { inRetriedTransaction } from './watch-queue.ts';

// The chats' daily digests on PostgreSQL, shared by replicas: claimed with a lease in one
// statement (FOR UPDATE SKIP LOCKED, as the polls are), and prepared in one transaction that
// holds the digest's row, queues its messages and forgets the changes it told, so that a digest
// is prepared once however many replicas run.

export type PostgresDigests = Pick<
  WatchStore,
  'digest' | 'setDigest' | 'rescheduleDigest' | 'removeDigest' | 'claimDigests' | 'prepareDigest' | 'skipDigest' | 'releaseDigest'
>;

type Row = Record<string, unknown>;

const UPSERT = `
  INSERT INTO digests (chat_id, thread_id, minute, quiet, locale, created_by, created_at, next_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (chat_id) DO UPDATE SET thread_id = excluded.thread_id, minute = excluded.minute, quiet = excluded.quiet,
    locale = excluded.locale, created_by = excluded.created_by, next_at = excluded.next_at
  RETURNING ${DIGEST_COLUMNS.replaceAll('d.', '')}`;

const CLAIM = `
  WITH due AS (
    SELECT chat_id FROM digests d
    WHERE d.next_at <= $1 AND d.paused_at IS NULL AND (d.lease_until IS NULL OR d.lease_until <= $1)
    ORDER BY d.next_at, d.chat_id LIMIT $2
    FOR UPDATE SKIP LOCKED
  ), leased AS (
    UPDATE digests d SET lease_owner = $3, lease_until = $4 FROM due WHERE d.chat_id = due.chat_id
    RETURNING d.*
  )
  SELECT ${DIGEST_COLUMNS} FROM leased d ORDER BY d.next_at, d.chat_id`;

const WATCHES = `
  SELECT ${WATCH_COLUMNS}, t.snapshot FROM watches w JOIN watch_targets t ON t.key = w.target_key
  WHERE w.chat_id = $1 ORDER BY w.created_at, w.id`;

const HELD = `
  SELECT h.id, h.watch_id, h.changes FROM held_changes h JOIN watches w ON w.id = h.watch_id
  WHERE h.chat_id = $1 AND h.kind = 'digest' AND w.snoozed_until IS NULL ORDER BY h.id`;

const QUEUE_MESSAGES = `
  INSERT INTO notifications (kind, chat_id, thread_id, locale, changes, created_at, attempts, next_attempt_at)
  SELECT 'digest', $1, $2, $3, message, $4, 0, $4 FROM unnest($5::text[]) WITH ORDINALITY AS m (message, n) ORDER BY n`;

export const createPostgresDigests = (pool: pg.Pool): PostgresDigests => ({
  async digest(chatId) {
    return readDigest((await pool.query<Row>(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.chat_id = $1`, [checkId(chatId)])).rows[0]);
  },
  async setDigest(next) {
    const { rows } = await pool.query<Row>(UPSERT, [
      checkId(next.chatId),
      next.threadId === undefined ? null : checkId(next.threadId),
      next.minute,
      next.quiet,
      checkLocale(next.locale),
      checkId(next.createdBy),
      next.now,
      next.nextAt,
    ]);
    const saved = readDigest(rows[0]);
    if (!saved) throw new Error(`the digest of chat ${next.chatId} cannot be read back`);
    return saved;
  },
  async rescheduleDigest(chatId, nextAt) {
    await pool.query('UPDATE digests SET next_at = $2 WHERE chat_id = $1', [checkId(chatId), nextAt]);
  },
  async removeDigest(chatId) {
    const chat = checkId(chatId);
    return inRetriedTransaction(pool, async (client) => {
      const deleted = await client.query('DELETE FROM digests WHERE chat_id = $1', [chat]);
      if ((deleted.rowCount ?? 0) === 0) return undefined;
      await client.query("DELETE FROM held_changes WHERE chat_id = $1 AND kind = 'digest'", [chat]);
      const undone = await client.query("UPDATE watches SET delivery = 'instant' WHERE chat_id = $1 AND delivery = 'digest'", [chat]);
      return undone.rowCount ?? 0;
    });
  },

  /** Due digests nobody holds, the longest due first; one this version cannot read is leased, not returned. */
  async claimDigests(owner, now, leaseMs, max) {
    checkClaim(owner, leaseMs, max);
    if (max === 0) return [];
    const { rows } = await pool.query<Row>(CLAIM, [now, max, owner, now + leaseMs]);
    return rows.map(readDigest).filter((digest): digest is Digest => digest !== undefined);
  },

  /** The digest's row is locked first: a replica that took the lease over waits, then finds it gone. */
  async prepareDigest(chatId, owner, { now, nextAt }, build) {
    const chat = checkId(chatId);
    return inRetriedTransaction(pool, async (client) => {
      const locked = await client.query<Row>(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.chat_id = $1 AND d.lease_owner = $2 FOR UPDATE`, [chat, owner]);
      const current = readDigest(locked.rows[0]);
      if (!current) return undefined;
      const watches = await client.query<Row>(WATCHES, [chat]);
      const held = await client.query<{ id: number; watch_id: number; changes: string }>(HELD, [chat]);
      const input: DigestInput = {
        digest: current,
        watches: watches.rows.flatMap((row) => {
          const watch = readWatch(row);
          return watch ? [{ watch, ...(typeof row.snapshot === 'string' && { snapshot: row.snapshot }) }] : [];
        }),
        held: held.rows.map((row) => ({ watchId: row.watch_id, changes: row.changes })),
      };
      const messages = build(input);
      if (messages.length > 0) await client.query(QUEUE_MESSAGES, [chat, current.threadId ?? null, current.locale, now, messages]);
      await client.query('DELETE FROM held_changes WHERE id = ANY($1::bigint[])', [held.rows.map((row) => row.id)]);
      await client.query(
        'UPDATE digests SET next_at = $2, last_sent_at = $3, missed_at = NULL, lease_owner = NULL, lease_until = NULL WHERE chat_id = $1',
        [chat, nextAt, now],
      );
      return messages.length;
    });
  },
  async skipDigest(chatId, owner, nextAt) {
    const skipped = await pool.query(
      'UPDATE digests SET missed_at = coalesce(missed_at, next_at), next_at = $3, lease_owner = NULL, lease_until = NULL WHERE chat_id = $1 AND lease_owner = $2',
      [checkId(chatId), owner, nextAt],
    );
    return (skipped.rowCount ?? 0) > 0;
  },
  async releaseDigest(chatId, owner, retryAt) {
    await pool.query('UPDATE digests SET next_at = $3, lease_owner = NULL, lease_until = NULL WHERE chat_id = $1 AND lease_owner = $2', [checkId(chatId), owner, retryAt]);
  },
});
