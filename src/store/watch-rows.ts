import { z } from 'zod';
import { LOCALES } from '../i18n.ts';
import { storedQuery } from './query-store.ts';
import { targetKey } from './target-key.ts';
import type { ClaimedTarget, Digest, Notification, Watch, WatchTarget } from './watch-store.ts';

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
export const WATCH_COLUMNS = `w.id, w.chat_id, w.thread_id, w.target_key, w.created_by, w.locale, w.created_at, w.last_change_at, w.mode, w.delivery, w.snoozed_until, ${TARGET_COLUMNS}`;

const watchColumns = z.object({
  id,
  chat_id: id,
  thread_id: id.nullable(),
  target_key: z.string(),
  created_by: id,
  locale: z.enum(LOCALES),
  created_at: z.number(),
  last_change_at: z.number().nullable(),
  // A mode or delivery this version does not know (a newer one's) reads as the default.
  mode: z.string(),
  delivery: z.string(),
  snoozed_until: z.number().nullable(),
});

/** The options a row's columns hold, as a Watch carries them (only when not the default). */
const optionsOf = (row: { mode: string; delivery: string }): { statusOnly?: true; digestOnly?: true } => ({
  ...(row.mode === 'status' && { statusOnly: true }),
  ...(row.delivery === 'digest' && { digestOnly: true }),
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
    ...optionsOf(data),
    ...(data.snoozed_until !== null && { snoozedUntil: data.snoozed_until }),
  };
};

/**
 * The columns a Notification is read from: notifications `n` joined with its target `t` and its
 * watch `w` (neither for a digest's message).
 */
export const NOTIFICATION_COLUMNS = `n.id, n.kind, n.watch_id, n.chat_id, n.thread_id, n.locale, n.changes, n.attempts, w.created_by, w.mode, w.delivery, ${TARGET_COLUMNS}`;
/** Where NOTIFICATION_COLUMNS come from, after `FROM <notifications as n>`. */
export const NOTIFICATION_JOINS = 'LEFT JOIN watch_targets t ON t.key = n.target_key LEFT JOIN watches w ON w.id = n.watch_id';

const notificationColumns = z.object({
  id,
  kind: z.string(),
  chat_id: id,
  thread_id: id.nullable(),
  locale: z.enum(LOCALES),
  changes: z.string(),
  attempts: id,
});
const changeColumns = z.object({ watch_id: id, created_by: id, mode: z.string(), delivery: z.string() });

/** A notification's row; undefined when this version cannot read it (a kind or a target it does not know). */
export const readNotification = (row: unknown): Notification | undefined => {
  const parsed = notificationColumns.safeParse(row);
  if (!parsed.success) return undefined;
  const { data } = parsed;
  const common = {
    id: data.id,
    chatId: data.chat_id,
    ...(data.thread_id !== null && { threadId: data.thread_id }),
    locale: data.locale,
    attempts: data.attempts,
  };
  if (data.kind === 'digest') return { ...common, kind: 'digest', message: data.changes };
  const change = changeColumns.safeParse(row);
  const target = readTarget(row);
  if (data.kind !== 'change' || !change.success || target === undefined) return undefined;
  return { ...common, kind: 'change', watchId: change.data.watch_id, target, changes: data.changes, createdBy: change.data.created_by, ...optionsOf(change.data) };
};

/** The columns a Digest is read from (digests `d`). */
export const DIGEST_COLUMNS = 'd.chat_id, d.thread_id, d.minute, d.quiet, d.locale, d.created_by, d.created_at, d.next_at, d.last_sent_at, d.missed_at';

const digestColumns = z.object({
  chat_id: id,
  thread_id: id.nullable(),
  minute: id,
  // sqlite keeps a flag as 0 or 1, PostgreSQL as a boolean.
  quiet: z.union([z.boolean(), z.number()]).transform(Boolean),
  locale: z.enum(LOCALES),
  created_by: id,
  created_at: z.number(),
  next_at: z.number(),
  last_sent_at: z.number().nullable(),
  missed_at: z.number().nullable(),
});

export const readDigest = (row: unknown): Digest | undefined => {
  const parsed = digestColumns.safeParse(row);
  if (!parsed.success) return undefined;
  const { data } = parsed;
  return {
    chatId: data.chat_id,
    ...(data.thread_id !== null && { threadId: data.thread_id }),
    minute: data.minute,
    quiet: data.quiet,
    locale: data.locale,
    createdBy: data.created_by,
    createdAt: data.created_at,
    nextAt: data.next_at,
    ...(data.last_sent_at !== null && { lastSentAt: data.last_sent_at }),
    ...(data.missed_at !== null && { missedAt: data.missed_at }),
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
