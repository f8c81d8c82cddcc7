import { z } from 'zod';
import { LOCALES } from '../i18n.ts';
import { storedQuery } from './query-store.ts';
import { targetKey } from './target-key.ts';
import type { ClaimedTarget, Notification, Watch, WatchTarget } from './watch-store.ts';

// Rows of the watch tables read back into values, by both backends (same columns, same meaning).
// A row this version cannot read (a filter it does not know, a target that does not match its
// key) reads as nothing and is skipped.

/** The columns of watch_targets a target is read from, prefixed with the table alias `t`. */
export const TARGET_COLUMNS = 't.key, t.resource, t.filter, t.value, t.sap_id';

const id = z.number().int();
const targetColumns = z.object({ key: z.string(), sap_id: z.string().nullable() });

/** The target of a row holding TARGET_COLUMNS, when it can be read and matches its key. */
export const readTarget = (row: unknown): WatchTarget | undefined => {
  const columns = targetColumns.safeParse(row);
  const query = storedQuery.safeParse(row);
  if (!columns.success || !query.success) return undefined;
  const target: WatchTarget = columns.data.sap_id === null ? { query: query.data } : { query: query.data, sapId: columns.data.sap_id };
  return targetKey(target) === columns.data.key ? target : undefined;
};

/** The columns a Watch is read from: watches `w` joined with its target `t`. */
export const WATCH_COLUMNS = `w.id, w.chat_id, w.thread_id, w.target_key, w.created_by, w.locale, w.created_at, w.last_change_at, ${TARGET_COLUMNS}`;

const watchColumns = z.object({
  id,
  chat_id: id,
  thread_id: id.nullable(),
  target_key: z.string(),
  created_by: id,
  locale: z.enum(LOCALES),
  created_at: z.number(),
  last_change_at: z.number().nullable(),
});

export const readWatch = (row: unknown): Watch | undefined => {
  const parsed = watchColumns.safeParse(row);
  const target = readTarget(row);
  if (!parsed.success || target === undefined) return undefined;
  const { data } = parsed;
  return {
    id: data.id,
    chatId: data.chat_id,
    ...(data.thread_id !== null && { threadId: data.thread_id }),
    targetKey: data.target_key,
    target,
    createdBy: data.created_by,
    locale: data.locale,
    createdAt: data.created_at,
    ...(data.last_change_at !== null && { lastChangeAt: data.last_change_at }),
  };
};

/** The columns a Notification is read from: notifications `n` joined with its target `t`. */
export const NOTIFICATION_COLUMNS = `n.id, n.watch_id, n.chat_id, n.thread_id, n.locale, n.changes, n.attempts, ${TARGET_COLUMNS}`;

const notificationColumns = z.object({
  id,
  watch_id: id,
  chat_id: id,
  thread_id: id.nullable(),
  locale: z.enum(LOCALES),
  changes: z.string(),
  attempts: id,
});

export const readNotification = (row: unknown): Notification | undefined => {
  const parsed = notificationColumns.safeParse(row);
  const target = readTarget(row);
  if (!parsed.success || target === undefined) return undefined;
  const { data } = parsed;
  return {
    id: data.id,
    watchId: data.watch_id,
    chatId: data.chat_id,
    ...(data.thread_id !== null && { threadId: data.thread_id }),
    locale: data.locale,
    target,
    changes: data.changes,
    attempts: data.attempts,
  };
};

/** A claimed target's row (TARGET_COLUMNS, snapshot, next_poll_at), when its target can be read. */
export const readClaimedTarget = (row: Record<string, unknown>): ClaimedTarget | undefined => {
  const target = readTarget(row);
  if (target === undefined) return undefined;
  return {
    key: String(row.key),
    target,
    ...(typeof row.snapshot === 'string' && { snapshot: row.snapshot }),
    nextPollAt: Number(row.next_poll_at),
  };
};
