import type { MiddlewareFn } from 'telegraf';
import { TelegramError } from 'telegraf';
import type { Logger } from 'pino';
import { pause, retryAfterMs } from '../../telegram/retry-policy.ts';
import { deadlineSignal, HandlerDeadlineError } from '../../telegram/update-scope.ts';
import type { BotContext } from '../context.ts';

export type TelegramRetryOptions = {
  logger: Logger;
  maxWaitSeconds?: number;
  attempts?: number;
  /** Waits `ms`, or less once `signal` (the update's deadline) aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/**
 * Telegram answers 429 with `retry_after` when a chat gets more than it allows. Every call of
 * this update waits that long (at least a second) and tries again (a few times, and never longer
 * than `maxWaitSeconds` at once: after that the error goes to the error boundary). The update's
 * deadline ends a wait early, with a HandlerDeadlineError.
 */
export const telegramRetry = ({ logger, maxWaitSeconds = 60, attempts = 3, sleep = pause }: TelegramRetryOptions): MiddlewareFn<BotContext> =>
  async (ctx, next) => {
    const telegram = ctx.telegram;
    const callApi = telegram.callApi.bind(telegram);
    telegram.callApi = (async (method: string, payload: unknown, options: unknown) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await (callApi as (m: string, p: unknown, o: unknown) => Promise<unknown>)(method, payload, options);
        } catch (error) {
          const retryAfter = error instanceof TelegramError && error.code === 429 ? error.parameters?.retry_after : undefined;
          if (retryAfter === undefined || attempt >= attempts || retryAfter > maxWaitSeconds) throw error;
          logger.warn({ method, retryAfter, attempt, updateId: ctx.update.update_id }, 'telegram asked to slow down');
          const deadline = deadlineSignal();
          await sleep(retryAfterMs(error as TelegramError), deadline);
          if (deadline?.aborted === true) throw new HandlerDeadlineError(method, ctx.update.update_id, { cause: error });
        }
      }
    }) as typeof telegram.callApi;
    await next();
  };
