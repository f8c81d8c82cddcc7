import type { Logger } from 'pino';
import type { WatchStore } from '../store/watch-store.ts';
import { changeSetSchema, readStored } from './changes.ts';
import { foldChangeSets } from './fold.ts';

// Snoozed watches waking: what each was not told while it slept is folded into one message, one
// line per record, queued in the same transaction that wakes it (src/store/*/watch-queue.ts).

/** Watches woken in one round, at most. */
const WAKE_BATCH = 50;

/** The held change sets (JSON, oldest first) as one, told at `at`; undefined when nothing is left to tell. */
export const foldHeld = (held: readonly string[], at: number): string | undefined => {
  const folded = foldChangeSets(
    held.flatMap((json) => readStored(changeSetSchema, json) ?? []),
    at,
  );
  return folded === undefined ? undefined : JSON.stringify(folded);
};

export const createSnoozes = ({ store, now, logger }: { store: WatchStore; now: () => number; logger: Pick<Logger, 'info'> }) => ({
  /** Wakes the watches whose snooze is over; resolves with how many woke. */
  async tick(): Promise<number> {
    const at = now();
    const woken = await store.wakeSnoozed(at, WAKE_BATCH, (held) => foldHeld(held, at));
    if (woken > 0) logger.info({ watches: woken }, 'snoozed watches woke');
    return woken;
  },
});
