import { TelegramError, type CallApi } from './telegraf/core.ts';
import type { Logger } from 'pino';
import { pause } from '../backoff.ts';
import { retryAfterMs } from './retry-policy.ts';
import { currentUpdateId, deadlineSignal, HandlerDeadlineError } from './update-scope.ts';

export type RetryAfterOptions = {
  logger?: Pick<Logger, 'warn'>;
  maxWaitSeconds?: number;
  attempts?: number;
  /** Waits `ms`, or less once `signal` (the update's deadline) aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/**
 * Telegram answers 429 with `retry_after` when a chat gets more than it allows. A call waits that
 * long (at least a second) and tries again (a few times, and never longer than `maxWaitSeconds`
 * at once: after that the error goes to the error boundary). The update's deadline ends a wait
 * early, with a HandlerDeadlineError.
 */
export const retryingRateLimits = (callApi: CallApi, { logger, maxWaitSeconds = 60, attempts = 3, sleep = pause }: RetryAfterOptions = {}): CallApi => {
  const call = callApi as (method: string, payload: unknown, options: unknown) => Promise<unknown>;
  const retrying = async (method: string, payload: unknown, options: unknown): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call(method, payload, options);
      } catch (error) {
        const retryAfter = error instanceof TelegramError && error.code === 429 ? error.parameters?.retry_after : undefined;
        if (retryAfter === undefined || attempt >= attempts || retryAfter > maxWaitSeconds) throw error;
        const updateId = currentUpdateId();
        logger?.warn({ method, retryAfter, attempt, updateId }, 'telegram asked to slow down');
        const deadline = deadlineSignal();
        await sleep(retryAfterMs(error as TelegramError), deadline);
        if (deadline?.aborted === true) throw new HandlerDeadlineError(method, updateId ?? -1, { cause: error });
      }
    }
  };
  return retrying as unknown as CallApi;
};
