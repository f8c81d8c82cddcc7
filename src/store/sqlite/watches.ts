import type { DatabaseSync } from 'node:sqlite';
import { checkId, checkLocale, checkTarget } from '../checks.ts';
import { immediately } from './transaction.ts';
import { createSqliteWatchQueue, type SqliteWatchQueue } from './watch-queue.ts';
import { readWatch, WATCH_COLUMNS } from '../watch-rows.ts';
import { targetKey } from '../target-key.ts';
import type { CachableWatchStore, ChatWatches } from '../watch-cache.ts';
import type { AddWatchResult, NewWatch, Watch, WatchOptions } from '../watch-store.ts';
import { createSqliteDigests, type SqliteDigests } from './digests.ts';

// The chats' watches on node:sqlite: what a chat watches (here) and the polling and sending
// queues (watch-queue.ts). A target row lives as long as some chat watches it.

/** node:sqlite answers at once: a WatchStore (it is assignable to one) with plain values. */
export type SqliteWatchStore = SqliteWatchQueue & SqliteDigests & {
  add(watch: NewWatch): AddWatchResult;
  remove(chatId: number, watchId: number): boolean;
  list(chatId: number): Watch[];
  find(chatId: number, targetKey: string): Watch | undefined;
  chatWatches(chatId: number): ChatWatches;
  watchers(targetKey: string): Watch[];
  counts(): { watches: number; targets: number; pending: number };
  pauseChat(chatId: number, now: number): void;
  resumeChat(chatId: number): boolean;
  moveChat(fromChatId: number, toChatId: number): void;
  removeChat(chatId: number): void;
  setOptions(chatId: number, watchId: number, options: WatchOptions): Watch | undefined;
  snooze(chatId: number, watchId: number, until: number): Watch | undefined;
  resume(chatId: number, watchId: number, now: number): Watch | undefined;
};

export const createSqliteWatchStore = (db: DatabaseSync): SqliteWatchStore => {
  const FROM = 'FROM watches w JOIN watch_targets t ON t.key = w.target_key';
  const selectByChat = db.prepare(`SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.chat_id = ? ORDER BY w.created_at, w.id`);
  const selectOne = db.prepare(`SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.chat_id = ? AND w.target_key = ?`);
  const selectById = db.prepare(`SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.id = ?`);
  const selectByTarget = db.prepare(`SELECT ${WATCH_COLUMNS} ${FROM} WHERE w.target_key = ? ORDER BY w.id`);
  const selectChatState = db.prepare('SELECT target_key, paused_at IS NOT NULL AS paused FROM watches WHERE chat_id = ?');
  const selectDigestPaused = db.prepare('SELECT 1 FROM digests WHERE chat_id = ? AND paused_at IS NOT NULL');
  const countChat = db.prepare('SELECT count(*) AS n FROM watches WHERE chat_id = ?');
  const insertTarget = db.prepare(`
    INSERT INTO watch_targets (key, resource, filter, value, sap_id, snapshot, snapshot_at, next_poll_at)
    VALUES (:key, :resource, :filter, :value, :sapId, :snapshot, :snapshotAt, :firstPollAt)
    ON CONFLICT (key) DO NOTHING`);
  const insertWatch = db.prepare(`
    INSERT INTO watches (chat_id, thread_id, target_key, created_by, locale, created_at)
    VALUES (:chatId, :threadId, :key, :createdBy, :locale, :now) RETURNING id`);
  const selectOwned = db.prepare('SELECT target_key FROM watches WHERE id = ? AND chat_id = ?');
  const deleteWatch = db.prepare('DELETE FROM watches WHERE id = ?');
  const selectChatTargets = db.prepare('SELECT DISTINCT target_key FROM watches WHERE chat_id = ?');
  const deleteChatWatches = db.prepare('DELETE FROM watches WHERE chat_id = ?');
  // The snapshot goes with the target: a chat that watches it again later starts afresh.
  const deleteOrphan = db.prepare('DELETE FROM watch_targets WHERE key = :key AND NOT EXISTS (SELECT 1 FROM watches WHERE target_key = :key)');
  const pause = db.prepare('UPDATE watches SET paused_at = ? WHERE chat_id = ? AND paused_at IS NULL');
  const pauseDigest = db.prepare('UPDATE digests SET paused_at = ? WHERE chat_id = ? AND paused_at IS NULL');
  const dropChatNotifications = db.prepare('DELETE FROM notifications WHERE chat_id = ?');
  const dropChatHeld = db.prepare('DELETE FROM held_changes WHERE chat_id = ?');
  const resume = db.prepare('UPDATE watches SET paused_at = NULL WHERE chat_id = ? AND paused_at IS NOT NULL');
  const resumeDigest = db.prepare('UPDATE digests SET paused_at = NULL WHERE chat_id = ? AND paused_at IS NOT NULL');
  // The moved chat's watch of a target the new chat watches too goes (its notifications with it,
  // ON DELETE CASCADE): the new chat keeps its own.
  const dropMovedDuplicates = db.prepare(`
    DELETE FROM watches WHERE chat_id = :from AND target_key IN (SELECT target_key FROM watches WHERE chat_id = :to)`);
  const moveWatches = db.prepare('UPDATE watches SET chat_id = :to, thread_id = NULL WHERE chat_id = :from');
  const moveNotifications = db.prepare('UPDATE notifications SET chat_id = :to, thread_id = NULL WHERE chat_id = :from');
  const moveHeld = db.prepare('UPDATE held_changes SET chat_id = :to WHERE chat_id = :from');
  // The new chat's own digest, if any, stays; else the moved one becomes its.
  const moveDigest = db.prepare('UPDATE digests SET chat_id = :to, thread_id = NULL WHERE chat_id = :from AND NOT EXISTS (SELECT 1 FROM digests WHERE chat_id = :to)');
  const deleteDigest = db.prepare('DELETE FROM digests WHERE chat_id = ?');
  const setMode = db.prepare('UPDATE watches SET mode = :mode WHERE id = :id');
  const setDelivery = db.prepare('UPDATE watches SET delivery = :delivery WHERE id = :id');
  const setSnooze = db.prepare('UPDATE watches SET snoozed_until = :until WHERE id = :id');
  // Due now: the next wake folds what it held into one message.
  const setResume = db.prepare('UPDATE watches SET snoozed_until = :now WHERE id = :id AND snoozed_until IS NOT NULL');
  const count = db.prepare(`
    SELECT (SELECT count(*) FROM watches) AS watches, (SELECT count(*) FROM watch_targets) AS targets,
      (SELECT count(*) FROM notifications) AS pending`);

  const readAll = (rows: unknown[]): Watch[] => rows.map(readWatch).filter((watch) => watch !== undefined);

  /** One of the chat's own watches changed by `change`, read back; undefined when the chat has no such watch. */
  const changeOwn = (chatId: number, watchId: number, change: () => void): Watch | undefined =>
    immediately(db, () => {
      if (!selectOwned.get(watchId, checkId(chatId))) return undefined;
      change();
      return readWatch(selectById.get(watchId));
    });

  const store = {
    ...createSqliteWatchQueue(db),
    ...createSqliteDigests(db),

    /**
     * The chat's watch of the same target is returned as it is (created: false), even at the
     * limit; a new one is refused when the chat has `limitPerChat` watches (paused ones count).
     * A target nobody watched yet is first polled at `firstPollAt`, from the snapshot given (if any).
     */
    add(watch) {
      const chatId = checkId(watch.chatId);
      const target = checkTarget(watch.target);
      const key = targetKey(target);
      return immediately(db, (): AddWatchResult => {
        const existing = selectOne.get(chatId, key);
        if (existing) {
          const found = readWatch(existing);
          if (!found) throw new Error(`the chat's watch of target ${key} cannot be read`);
          return { ok: true, watch: found, created: false };
        }
        if (Number(countChat.get(chatId)?.n ?? 0) >= watch.limitPerChat) return { ok: false, reason: 'limit' };
        const { query, sapId } = target;
        insertTarget.run({
          key,
          resource: query.resource,
          filter: query.filter,
          value: query.value,
          sapId: sapId ?? null,
          snapshot: watch.snapshot ?? null,
          snapshotAt: watch.snapshot === undefined ? null : watch.now,
          firstPollAt: watch.firstPollAt,
        });
        const inserted = insertWatch.get({
          chatId,
          threadId: watch.threadId === undefined ? null : checkId(watch.threadId),
          key,
          createdBy: checkId(watch.createdBy),
          locale: checkLocale(watch.locale),
          now: watch.now,
        });
        const created = readWatch(selectById.get(Number(inserted?.id)));
        if (!created) throw new Error(`the new watch of target ${key} cannot be read`);
        return { ok: true, watch: created, created: true };
      });
    },

    /** Only the chat's own watch; its pending notifications go with it, and its target when no one else watches it. */
    remove(chatId, watchId) {
      return immediately(db, () => {
        const row = selectOwned.get(watchId, checkId(chatId));
        if (!row) return false;
        deleteWatch.run(watchId);
        deleteOrphan.run({ key: String(row.target_key) });
        return true;
      });
    },

    list: (chatId) => readAll(selectByChat.all(checkId(chatId))),
    find: (chatId, key) => readWatch(selectOne.get(checkId(chatId), key)),
    /** What the watch cache keeps of the chat (watch-cache.ts). */
    chatWatches(chatId) {
      const rows = selectChatState.all(checkId(chatId));
      const paused = rows.some((row) => Number(row.paused) === 1) || selectDigestPaused.get(chatId) !== undefined;
      return { targetKeys: rows.map((row) => String(row.target_key)), paused };
    },
    /** Paused watches too: the allowlist check removes a chat's watches whether or not they are paused. */
    watchers: (key) => readAll(selectByTarget.all(key)),
    counts() {
      const row = count.get();
      return { watches: Number(row?.watches ?? 0), targets: Number(row?.targets ?? 0), pending: Number(row?.pending ?? 0) };
    },

    /** A target whose every watch is paused is not polled until one resumes. */
    pauseChat(chatId, now) {
      immediately(db, () => {
        pause.run(now, checkId(chatId));
        pauseDigest.run(now, chatId);
        dropChatNotifications.run(chatId);
        dropChatHeld.run(chatId);
      });
    },
    resumeChat: (chatId) =>
      immediately(db, () => {
        const watches = Number(resume.run(checkId(chatId)).changes);
        return watches + Number(resumeDigest.run(chatId).changes) > 0;
      }),
    /** Watch ids stay, so each pending notification still belongs to its (moved) watch. */
    moveChat(fromChatId, toChatId) {
      const from = checkId(fromChatId);
      const to = checkId(toChatId);
      if (from === to) return;
      immediately(db, () => {
        dropMovedDuplicates.run({ from, to });
        moveWatches.run({ from, to });
        moveNotifications.run({ from, to });
        moveHeld.run({ from, to });
        moveDigest.run({ from, to });
        deleteDigest.run(from);
      });
    },
    removeChat(chatId) {
      immediately(db, () => {
        const keys = selectChatTargets.all(checkId(chatId)).map((row) => String(row.target_key));
        // A digest's messages belong to no watch: they go by the chat.
        dropChatNotifications.run(chatId);
        deleteChatWatches.run(chatId);
        deleteDigest.run(chatId);
        for (const key of keys) deleteOrphan.run({ key });
      });
    },

    setOptions(chatId, watchId, options) {
      return changeOwn(chatId, watchId, () => {
        if (options.statusOnly !== undefined) setMode.run({ id: watchId, mode: options.statusOnly ? 'status' : 'all' });
        if (options.digestOnly !== undefined) setDelivery.run({ id: watchId, delivery: options.digestOnly ? 'digest' : 'instant' });
      });
    },
    /** The last snooze asked for holds, longer or shorter than the one running. */
    snooze: (chatId, watchId, until) => changeOwn(chatId, watchId, () => setSnooze.run({ id: watchId, until })),
    resume: (chatId, watchId, now) => changeOwn(chatId, watchId, () => setResume.run({ id: watchId, now })),
  } satisfies CachableWatchStore;
  return store;
};
