import type { Logger } from 'pino';
import { z } from 'zod';
import type { Update } from 'telegraf/types';

// Updates as they arrive, checked at the edge: only what the runner relies on (an object with a
// usable update_id); the rest is Telegraf's to read.

const updateSchema = z.looseObject({ update_id: z.int().nonnegative() });

/** getUpdates answered `ok: true` without a list of updates. */
export class MalformedUpdatesError extends Error {
  constructor() {
    super('getUpdates answered ok without a list of updates');
    this.name = 'MalformedUpdatesError';
  }
}

export type ParsedUpdate = { ok: true; update: Update } | { ok: false; problems: string[] };

/** The update, or why it is not one (field paths and zod's words, never the values). */
export const parseUpdate = (value: unknown): ParsedUpdate => {
  const parsed = updateSchema.safeParse(value);
  if (parsed.success) return { ok: true, update: parsed.data as unknown as Update };
  return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'update'}: ${issue.message}`) };
};

/** The elements of a getUpdates result; a MalformedUpdatesError when it is not a list. */
export const parseBatch = (result: unknown): unknown[] => {
  const parsed = z.array(z.unknown()).safeParse(result);
  if (!parsed.success) throw new MalformedUpdatesError();
  return parsed.data;
};

/**
 * The updates of a batch to handle, in order: each valid and at or above `offset` (the next id
 * expected), so an update already fetched, repeated or not, is left out. The new offset never
 * moves back; a malformed element never moves it. Skipped elements are logged without content.
 */
export const takeNewUpdates = (batch: unknown[], offset: number, logger: Logger) => {
  const updates: Update[] = [];
  let next = offset;
  let malformed = 0;
  for (const item of batch) {
    const parsed = parseUpdate(item);
    if (!parsed.ok) {
      malformed++;
      logger.warn({ problems: parsed.problems }, 'skipped a malformed update');
    } else if (parsed.update.update_id < next) {
      logger.warn({ updateId: parsed.update.update_id, offset: next }, 'skipped an update already handled');
    } else {
      next = parsed.update.update_id + 1;
      updates.push(parsed.update);
    }
  }
  return { updates, offset: next, malformed };
};
