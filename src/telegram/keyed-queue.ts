import type { Update } from './telegraf/core.ts';
import { updateKey } from './update-key.ts';

export type KeyedQueue = ReturnType<typeof createKeyedQueue>;

type Ready = { key: number | undefined; update: Update };

/**
 * Runs updates one at a time per key and at most `concurrency` at once overall. It takes at most
 * `concurrency` more updates than it runs (those waiting behind their chat or for a free slot), so
 * a chat stuck in a slow handler fills a bounded buffer and then fetching stops.
 */
export const createKeyedQueue = ({ concurrency, run }: { concurrency: number; run: (update: Update) => Promise<void> }) => {
  // A key is present while an update of it runs or is ready; its value is the updates behind that one.
  const backlogs = new Map<number, Update[]>();
  const ready: Ready[] = [];
  const listeners = new Set<() => void>();
  let running = 0;
  let waiting = 0;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const start = ({ key, update }: Ready) => {
    running++;
    void run(update).finally(() => {
      running--;
      if (key !== undefined) {
        const next = backlogs.get(key)?.shift();
        if (next === undefined) backlogs.delete(key);
        else ready.push({ key, update: next });
      }
      pump();
      notify();
    });
  };

  const pump = () => {
    while (running < concurrency && ready.length > 0) {
      waiting--;
      start(ready.shift()!);
    }
  };

  return {
    push(update: Update) {
      const key = updateKey(update);
      waiting++;
      const backlog = key === undefined ? undefined : backlogs.get(key);
      if (backlog !== undefined) {
        backlog.push(update);
        return;
      }
      if (key !== undefined) backlogs.set(key, []);
      ready.push({ key, update });
      pump();
    },
    /** How many updates may be fetched now: none while every handler slot is taken. */
    room: () => (running < concurrency ? Math.max(0, 2 * concurrency - running - waiting) : 0),
    running: () => running,
    /** Fetched and not finished: running, or waiting to run. */
    pending: () => running + waiting,
    /** Updates taken that never started, in update order. */
    unstarted: (): Update[] =>
      [...ready.map((item) => item.update), ...[...backlogs.values()].flat()].sort((a, b) => a.update_id - b.update_id),
    /** Resolves once `condition` holds, re-checked whenever a handler finishes; early when `signal` aborts. */
    until(condition: () => boolean, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (!condition() && signal?.aborted !== true) return;
          listeners.delete(check);
          signal?.removeEventListener('abort', check);
          resolve();
        };
        listeners.add(check);
        signal?.addEventListener('abort', check);
        check();
      });
    },
  };
};
