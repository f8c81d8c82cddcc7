import { setTimeout as sleep } from 'node:timers/promises';
import { createExportMemory } from '../memory-budget.ts';
import type { Query } from '../query.ts';
import { outsideUpdateScope } from '../telegram/update-scope.ts';
import { createExportSlots, type ExportTurn } from './slots.ts';
import { runExport, type ExportDeps, type ExportJob } from './run-export.ts';

export type Exports = ReturnType<typeof createExports>;

/** The end of a stop's grace left for the exports stopped to say so and remove their files. */
export const STOP_TELL_MS = 1_000;

/**
 * Where an export runs and for whom, as plain values (src/bot/features/export.ts reads them from
 * the update): the chat, its forum topic, the message to reply to in a group, and the views.
 */
export type ExportPlace = Pick<ExportJob, 'telegram' | 'chatId' | 'threadId' | 'replyTo' | 'userId' | 'fmt' | 'views'>;

/**
 * Exports run beside the updates, not inside them: a chat's updates are handled one at a time
 * within a deadline, and an export of a thousand records would hold the chat (a second press
 * could not even be told one is running) and outlive the deadline.
 */
export const createExports = ({
  concurrency,
  memoryBytes = Number.POSITIVE_INFINITY,
  ...rest
}: Omit<ExportDeps, 'signal'> & { concurrency: number; /** What all exports' records may take of the heap together. */ memoryBytes?: number }) => {
  const slots = createExportSlots(concurrency);
  const memory = createExportMemory(memoryBytes, concurrency);
  const running = new Set<Promise<void>>();
  const stopping = new AbortController();
  const deps: ExportDeps = { ...rest, signal: stopping.signal };
  const idle = async (): Promise<void> => {
    while (running.size > 0) await Promise.all([...running]);
  };

  return {
    /** The user's turn; undefined while another export of theirs runs or waits. */
    take: (userId: number): ExportTurn | undefined => slots.take(userId),

    /** Starts the export and returns at once. */
    run(place: ExportPlace, slot: ExportTurn, query: Query): void {
      // The export's memory goes back with its slot: the next export in line starts with its share.
      const lease = memory.lease();
      const turn: ExportTurn = {
        ...slot,
        end: () => {
          lease.free();
          slot.end();
        },
      };
      const job: ExportJob = { ...place, query, turn, memory: lease };
      // Outside the update's scope: its deadline cancels the update's Telegram calls, never the export's.
      const task: Promise<void> = outsideUpdateScope(() => runExport(job, deps))
        .catch((error: unknown) => deps.logger.error({ err: error, chatId: place.chatId }, 'export crashed'))
        .finally(() => running.delete(task));
      running.add(task);
    },

    /** Resolves once no export runs or waits. */
    idle,

    /**
     * A graceful stop within `graceMs` in all: the exports running or waiting may finish until
     * the last STOP_TELL_MS of it (at most its half); those still at it then stop (between two
     * pages or rows, or their upload given up), their message saying so with "Try again", their
     * files removed, in what is left of the grace.
     */
    stop: async (graceMs: number): Promise<void> => {
      const done = idle().then(() => true);
      const tellMs = Math.min(STOP_TELL_MS, graceMs / 2);
      if (await Promise.race([done, sleep(graceMs - tellMs, false, { ref: false })])) return;
      deps.logger.warn({ running: slots.running(), waiting: slots.waiting() }, 'stopping the exports still running');
      stopping.abort();
      await Promise.race([done, sleep(tellMs, false, { ref: false })]);
    },

    running: () => slots.running(),
    waiting: () => slots.waiting(),
  };
};
