import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

// The update a piece of code is handling, carried by AsyncLocalStorage from the runner to the Bot
// API client: so the client, built and installed once, can cancel that update's calls at its deadline.

type UpdateScope = { updateId: number; signal: AbortSignal; calls: string[] };

const storage = new AsyncLocalStorage<UpdateScope>();

/** A Telegram call of an update whose deadline had passed: refused, or cut off in flight. */
export class HandlerDeadlineError extends Error {
  readonly method: string;
  readonly updateId: number;
  constructor(method: string, updateId: number, options?: ErrorOptions) {
    super(`the deadline of update ${updateId} passed: ${method} was cancelled`, options);
    this.name = 'HandlerDeadlineError';
    this.method = method;
    this.updateId = updateId;
  }
}

/** The id of the update being handled here, if any. */
export const currentUpdateId = (): number | undefined => storage.getStore()?.updateId;

/** The signal that aborts at the deadline of the update being handled here, if any. */
export const deadlineSignal = (): AbortSignal | undefined => storage.getStore()?.signal;

/** Runs `work` outside any update: work an update starts that outlives it (an export) keeps no deadline of the update's. */
export const outsideUpdateScope = <T>(work: () => T): T => storage.exit(work);

/** Runs `work` as the handling of one update, whose Telegram calls are cancelled after `deadlineMs`. */
export const runInUpdateScope = async <T>(
  { updateId, deadlineMs, logger }: { updateId: number; deadlineMs: number; logger: Logger },
  work: () => Promise<T>,
): Promise<T> => {
  const aborter = new AbortController();
  const scope: UpdateScope = { updateId, signal: aborter.signal, calls: [] };
  const timer = setTimeout(() => {
    logger.warn({ updateId, deadlineMs, methods: [...scope.calls] }, 'update passed its deadline: its Telegram calls are cancelled');
    aborter.abort();
  }, deadlineMs);
  try {
    return await storage.run(scope, work);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Sends one Telegram call of the current update (outside any update, as is): refused at once
 * after its deadline, aborted when the deadline passes while it is in flight.
 */
export const callWithinDeadline = async <T>(method: string, signal: AbortSignal | undefined, send: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> => {
  const scope = storage.getStore();
  if (scope === undefined) return send(signal);
  if (scope.signal.aborted) throw new HandlerDeadlineError(method, scope.updateId);
  scope.calls.push(method);
  try {
    return await send(signal === undefined ? scope.signal : AbortSignal.any([signal, scope.signal]));
  } catch (error) {
    if (scope.signal.aborted) throw new HandlerDeadlineError(method, scope.updateId, { cause: error });
    throw error;
  } finally {
    scope.calls.splice(scope.calls.indexOf(method), 1);
  }
};
