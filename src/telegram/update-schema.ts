import type { Logger } from 'pino';
import { z } from 'zod';
import type { Update } from './telegraf/core.ts';

// Updates as they arrive, checked at the edge: only what the runner relies on (an object with a
// usable update_id); the rest is Telegraf's to read.

/** The Bot API numbers updates with 32-bit integers: a larger id is no update of Telegram's. */
export const MAX_UPDATE_ID = 2 ** 31 - 1;

const updateSchema = z.looseObject({ update_id: z.int().nonnegative().max(MAX_UPDATE_ID) });

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

// Built once: a zod schema costs more to build than to check a batch with (it was built per poll).
const batchSchema = z.array(z.unknown());

/** The elements of a getUpdates result; a MalformedUpdatesError when it is not a list. */
export const parseBatch = (result: unknown): unknown[] => {
  const parsed = batchSchema.safeParse(result);
  if (!parsed.success) throw new MalformedUpdatesError();
  return parsed.data;
};

/**
 * How far above the offset an update_id may be at first sight. Telegram numbers updates one by
 * one, so a jump of millions is most likely a corrupt answer, and taking it would move the offset
 * past every real update. But after a week without updates Telegram picks the next id at random:
 * so a jump is refused once (the offset stays, and Telegram sends it again) and taken when the
 * same id comes back at the head of the next batch. With no offset yet (0, at start) any id is taken.
 */
export const MAX_UPDATE_ID_JUMP = 10_000_000;

export type SkipCounts = { malformed: number; repeated: number; implausible: number };

/**
 * The updates of a batch to handle, in order: each valid, at or above `offset` (the next id
 * expected), so an update already fetched, repeated or not, is left out, and not implausibly far
 * above it unless it is `refusedJump`, refused so from the batch before (`jump` names the first refused now). The new offset never moves back; a skipped element never moves it. What was skipped is
 * counted, with the problems of malformed ones (field paths, never values).
 */
export const takeNewUpdates = (batch: unknown[], offset: number, refusedJump?: number) => {
  const updates: Update[] = [];
  const skipped: SkipCounts = { malformed: 0, repeated: 0, implausible: 0 };
  const problems = new Set<string>();
  let next = offset;
  let jump: number | undefined;
  for (const item of batch) {
    const parsed = parseUpdate(item);
    if (!parsed.ok) {
      skipped.malformed++;
      for (const problem of parsed.problems) problems.add(problem);
    } else if (parsed.update.update_id < next) {
      skipped.repeated++;
    } else if (next > 0 && parsed.update.update_id - next > MAX_UPDATE_ID_JUMP && parsed.update.update_id !== refusedJump) {
      skipped.implausible++;
      jump ??= parsed.update.update_id;
    } else {
      next = parsed.update.update_id + 1;
      updates.push(parsed.update);
    }
  }
  return { updates, offset: next, skipped, problems: [...problems], jump };
};

/**
 * Logs skipped updates as one line of counts, at most once per `intervalMs`: a server that repeats
 * the same answer must not fill the log. Counts of batches not logged go into the next line;
 * `flush` logs what is left (at stop).
 */
export const createSkipLog = ({ logger, intervalMs, now = Date.now }: { logger: Logger; intervalMs: number; now?: () => number }) => {
  let pending: (SkipCounts & { batches: number; problems: Set<string> }) | undefined;
  let lastAt = -Infinity;
  const flush = (fields: Record<string, unknown> = {}) => {
    if (pending === undefined) return;
    const { problems, ...counts } = pending;
    logger.warn({ ...counts, problems: [...problems].slice(0, 10), ...fields }, 'skipped updates');
    pending = undefined;
    lastAt = now();
  };
  return {
    /** One batch's skips; `fields` (offset, the backoff) go on the line if it is logged now. */
    add(skipped: SkipCounts, problems: string[], fields: Record<string, unknown>) {
      if (skipped.malformed + skipped.repeated + skipped.implausible === 0) return;
      pending ??= { batches: 0, malformed: 0, repeated: 0, implausible: 0, problems: new Set() };
      pending.batches++;
      pending.malformed += skipped.malformed;
      pending.repeated += skipped.repeated;
      pending.implausible += skipped.implausible;
      for (const problem of problems) pending.problems.add(problem);
      if (now() - lastAt >= intervalMs) flush(fields);
    },
    flush,
  };
};
