import type pg from 'pg';
import { checkId, checkLocale, checkTarget } from '../checks.ts';
import { WATCHES_CHANNEL } from './settings-listener.ts';
import { createPostgresWatchQueue, inRetriedTransaction } from './watch-queue.ts';
import { readWatch, WATCH_COLUMNS } from '../watch-rows.ts';
import { targetKey } from '../target-key.ts';
import type { CachableWatchStore } from '../watch-cache.ts';
import type { AddWatchResult, Watch } from '../watch-store.ts';
import { createPostgresDigests } from './digests.ts';

// The chats' watches on PostgreSQL, shared by replicas: what a chat watches (here) and the
// polling and sending queues (watch-queue.ts). Rows are read by src/store/watch-rows.ts, as the
// sqlite store reads them. A target row lives as long as some chat watches it. Each change to a chat's watches notifies the other replicas in its
// own transaction, so on commit (settings-listener.ts evicts their cached record).

type Row = Record<string, unknown>;

// Adding a watch holds a transaction-scoped advisory lock on its chat, so that two replicas
// adding watches to one chat at once count its watches one after the other and the per-chat
// limit holds. The two-key form, with this class, keeps it apart from every single-key lock
// (a per-chat lock held while an update is handled must not block this one).
const CHAT_LOCK_CLASS = 0x57415443; // 'WATC'
const LOCK_CHAT = `SELECT pg_advisory_xact_lock(${CHAT_LOCK_CLASS}, hashint8($1::bigint))`;

const FROM = 'FROM watches w JOIN watch_targets t ON t.key = w.target_key';
const SELECT_BY_CHAT = `SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.chat_id = $1 ORDER BY w.created_at, w.id`;
const SELECT_ONE = `SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.chat_id = $1 AND w.target_key = $2`;
const SELECT_BY_ID = `SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.id = $1`;
const SELECT_BY_TARGET = `SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.target_key = $1 ORDER BY w.id`;
const INSERT_TARGET = `
  INSERT INTO watch_targets (key, resource, filter, value, sap_id, snapshot, snapshot_at, next_poll_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (key) DO NOTHING`;
const INSERT_WATCH = `
  INSERT INTO watches (chat_id, thread_id, target_key, created_by, locale, created_at)
  VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`;
// The snapshot goes with the target: a chat that watches it again later starts afresh. Should
// another replica add a watch of it at this moment, one of the two transactions fails on the
// foreign key and runs again, seeing the other's work.
const DELETE_ORPHANS = `
  DELETE FROM watch_targets t WHERE t.key = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM watches w WHERE w.target_key = t.key)`;
// Sent within the writing transaction: delivered when (and only if) it commits.
const NOTIFY = `SELECT pg_notify('${WATCHES_CHANNEL}', $1)`;
const notify = (client: pg.PoolClient, chatId: number) => client.query(NOTIFY, [String(chatId)]);
// One statement: the notice goes only when some watch (or the digest) was resumed.
const RESUME = `
  WITH resumed AS (UPDATE watches SET paused_at = NULL WHERE chat_id = $1 AND paused_at IS NOT NULL RETURNING chat_id),
  digest AS (UPDATE digests SET paused_at = NULL WHERE chat_id = $1 AND paused_at IS NOT NULL RETURNING chat_id)
  SELECT pg_notify('${WATCHES_CHANNEL}', chat_id::text) FROM (SELECT chat_id FROM resumed UNION ALL SELECT chat_id FROM digest) AS either LIMIT 1`;
const COUNT = `
  SELECT (SELECT count(*) FROM watches) AS watches, (SELECT count(*) FROM watch_targets) AS targets,
    (SELECT count(*) FROM notifications) AS pending`;

const readAll = (rows: Row[]): Watch[] => rows.map(readWatch).filter((watch): watch is Watch => watch !== undefined);

const keysOf = (rows: Row[]): string[] => rows.map((row) => String(row.target_key));

/** One of the chat's own watches changed by `change` (under its lock), read back; undefined when the chat has no such watch. */
const changeOwn = (pool: pg.Pool, chatId: number, watchId: number, change: (client: pg.PoolClient) => Promise<unknown>): Promise<Watch | undefined> =>
  inRetriedTransaction(pool, async (client) => {
    const owned = await client.query('SELECT 1 FROM watches WHERE id = $1 AND chat_id = $2 FOR UPDATE', [watchId, checkId(chatId)]);
    if (owned.rows.length === 0) return undefined;
    await change(client);
    return readWatch((await client.query<Row>(SELECT_BY_ID, [watchId])).rows[0]);
  });

export const createPostgresWatchStore = (pool: pg.Pool): CachableWatchStore => ({
  ...createPostgresWatchQueue(pool),
  ...createPostgresDigests(pool),

  /**
   * The chat's watch of the same target is returned as it is (created: false), even at the
   * limit; a new one is refused when the chat has `limitPerChat` watches (paused ones count).
   * A target nobody watched yet is first polled at `firstPollAt`, from the snapshot given (if any).
   */
  async add(watch) {
    const chatId = checkId(watch.chatId);
    const target = checkTarget(watch.target);
    const threadId = watch.threadId === undefined ? null : checkId(watch.threadId);
    const createdBy = checkId(watch.createdBy);
    const locale = checkLocale(watch.locale);
    const key = targetKey(target);
    return inRetriedTransaction(pool, async (client): Promise<AddWatchResult> => {
      await client.query(LOCK_CHAT, [chatId]);
      const existing = await client.query<Row>(SELECT_ONE, [chatId, key]);
      if (existing.rows.length > 0) {
        const found = readWatch(existing.rows[0]);
        if (!found) throw new Error(`the chat's watch of target ${key} cannot be read`);
        return { ok: true, watch: found, created: false };
      }
      const counted = await client.query<Row>('SELECT count(*) AS n FROM watches WHERE chat_id = $1', [chatId]);
      if (Number(counted.rows[0]?.n ?? 0) >= watch.limitPerChat) return { ok: false, reason: 'limit' };
      const { query, sapId } = target;
      await client.query(INSERT_TARGET, [
        key,
        query.resource,
        query.filter,
        query.value,
        sapId ?? null,
        watch.snapshot ?? null,
        watch.snapshot === undefined ? null : watch.now,
        watch.firstPollAt,
      ]);
      const inserted = await client.query<Row>(INSERT_WATCH, [chatId, threadId, key, createdBy, locale, watch.now]);
      const created = readWatch((await client.query<Row>(SELECT_BY_ID, [Number(inserted.rows[0]?.id)])).rows[0]);
      if (!created) throw new Error(`the new watch of target ${key} cannot be read`);
      await notify(client, chatId);
      return { ok: true, watch: created, created: true };
    });
  },

  /** Only the chat's own watch; its pending notifications go with it, and its target when no one else watches it. */
  async remove(chatId, watchId) {
    const chat = checkId(chatId);
    return inRetriedTransaction(pool, async (client) => {
      const deleted = await client.query<Row>('DELETE FROM watches WHERE id = $1 AND chat_id = $2 RETURNING target_key', [watchId, chat]);
      if (deleted.rows.length === 0) return false;
      await client.query(DELETE_ORPHANS, [keysOf(deleted.rows)]);
      await notify(client, chat);
      return true;
    });
  },

  async list(chatId) {
    return readAll((await pool.query<Row>(SELECT_BY_CHAT, [checkId(chatId)])).rows);
  },
  async find(chatId, key) {
    return readWatch((await pool.query<Row>(SELECT_ONE, [checkId(chatId), key])).rows[0]);
  },
  /** What the watch cache keeps of the chat (watch-cache.ts). */
  async chatWatches(chatId) {
    const { rows } = await pool.query<{ target_key: string | null; paused: boolean }>(
      `SELECT target_key, paused_at IS NOT NULL AS paused FROM watches WHERE chat_id = $1
       UNION ALL SELECT NULL, true FROM digests WHERE chat_id = $1 AND paused_at IS NOT NULL`,
      [checkId(chatId)],
    );
    return { targetKeys: rows.flatMap((row) => (row.target_key === null ? [] : [row.target_key])), paused: rows.some((row) => row.paused) };
  },
  /** Paused watches too: the allowlist check removes a chat's watches whether or not they are paused. */
  async watchers(key) {
    return readAll((await pool.query<Row>(SELECT_BY_TARGET, [key])).rows);
  },
  async counts() {
    const row = (await pool.query<Row>(COUNT)).rows[0];
    return { watches: Number(row?.watches ?? 0), targets: Number(row?.targets ?? 0), pending: Number(row?.pending ?? 0) };
  },

  /**
   * A target whose every watch is paused is not polled until one resumes. The pause locks the
   * chat's watches: a poll queuing notifications at this moment either finishes first (and its
   * notifications are dropped here) or waits and queues none for this chat.
   */
  async pauseChat(chatId, now) {
    const chat = checkId(chatId);
    await inRetriedTransaction(pool, async (client) => {
      const paused = await client.query('UPDATE watches SET paused_at = $1 WHERE chat_id = $2 AND paused_at IS NULL', [now, chat]);
      const digest = await client.query('UPDATE digests SET paused_at = $1 WHERE chat_id = $2 AND paused_at IS NULL', [now, chat]);
      await client.query('DELETE FROM notifications WHERE chat_id = $1', [chat]);
      await client.query('DELETE FROM held_changes WHERE chat_id = $1', [chat]);
      if ((paused.rowCount ?? 0) + (digest.rowCount ?? 0) > 0) await notify(client, chat);
    });
  },
  async resumeChat(chatId) {
    const resumed = await pool.query(RESUME, [checkId(chatId)]);
    return (resumed.rowCount ?? 0) > 0;
  },
  /**
   * Watch ids stay, so each pending notification still belongs to its (moved) watch. The moved
   * chat's watch of a target the new chat watches too goes (its notifications with it, ON DELETE
   * CASCADE): the new chat keeps its own. Both chats are locked, in a fixed order, against an
   * `add` to either at this moment.
   */
  async moveChat(fromChatId, toChatId) {
    const from = checkId(fromChatId);
    const to = checkId(toChatId);
    if (from === to) return;
    await inRetriedTransaction(pool, async (client) => {
      for (const chat of [from, to].sort((a, b) => a - b)) await client.query(LOCK_CHAT, [chat]);
      await client.query('DELETE FROM watches WHERE chat_id = $1 AND target_key IN (SELECT target_key FROM watches WHERE chat_id = $2)', [from, to]);
      await client.query('UPDATE watches SET chat_id = $2, thread_id = NULL WHERE chat_id = $1', [from, to]);
      await client.query('UPDATE notifications SET chat_id = $2, thread_id = NULL WHERE chat_id = $1', [from, to]);
      await client.query('UPDATE held_changes SET chat_id = $2 WHERE chat_id = $1', [from, to]);
      // The new chat's own digest, if any, stays; else the moved one becomes its.
      await client.query('UPDATE digests SET chat_id = $2, thread_id = NULL WHERE chat_id = $1 AND NOT EXISTS (SELECT 1 FROM digests WHERE chat_id = $2)', [from, to]);
      await client.query('DELETE FROM digests WHERE chat_id = $1', [from]);
      for (const chat of [from, to]) await notify(client, chat);
    });
  },
  async removeChat(chatId) {
    const chat = checkId(chatId);
    await inRetriedTransaction(pool, async (client) => {
      // A digest's messages belong to no watch: they go by the chat.
      await client.query('DELETE FROM notifications WHERE chat_id = $1', [chat]);
      const digest = await client.query('DELETE FROM digests WHERE chat_id = $1', [chat]);
      const deleted = await client.query<Row>('DELETE FROM watches WHERE chat_id = $1 RETURNING target_key', [chat]);
      if (deleted.rows.length === 0 && (digest.rowCount ?? 0) === 0) return;
      await client.query(DELETE_ORPHANS, [keysOf(deleted.rows)]);
      await notify(client, chat);
    });
  },

  async setOptions(chatId, watchId, options) {
    return changeOwn(pool, chatId, watchId, async (client) => {
      if (options.statusOnly !== undefined) await client.query('UPDATE watches SET mode = $2 WHERE id = $1', [watchId, options.statusOnly ? 'status' : 'all']);
      if (options.digestOnly !== undefined) await client.query('UPDATE watches SET delivery = $2 WHERE id = $1', [watchId, options.digestOnly ? 'digest' : 'instant']);
    });
  },
  /** The last snooze asked for holds, longer or shorter than the one running. */
  async snooze(chatId, watchId, until) {
    return changeOwn(pool, chatId, watchId, (client) => client.query('UPDATE watches SET snoozed_until = $2 WHERE id = $1', [watchId, until]));
  },
  /** Due now: the next wake folds what it held into one message. */
  async resume(chatId, watchId, now) {
    return changeOwn(pool, chatId, watchId, (client) => client.query('UPDATE watches SET snoozed_until = $2 WHERE id = $1 AND snoozed_until IS NOT NULL', [watchId, now]));
  },
});
