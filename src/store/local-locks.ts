import type { CoordinationStore } from './store.ts';

/**
 * A mutex per name, as a chain of promises: each task starts when the one before it under the
 * same name settled, whether it resolved or threw.
 */
export const createLocalLocks = (): Pick<CoordinationStore, 'exclusively'> => {
  const tails = new Map<string, Promise<unknown>>();
  return {
    exclusively<T>(name: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const result = previous.then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(name, tail);
      // The map holds only names with a task queued or running.
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return result;
    },
  };
};
