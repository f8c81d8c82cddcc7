import type { Logger } from 'pino';
import { pause, type Backoff } from '../backoff.ts';
import { classifyStartError } from './retry-policy.ts';

export type StartUpRetry = <T>(method: string, call: () => Promise<T>) => Promise<T>;

/**
 * Retries a Telegram call made at start-up until it succeeds: the Bot API may be unreachable for
 * a while (a network not up yet, a proxy restarting). Only a refused token ends the start, or
 * `signal` (a replica that stopped leading while its polling still started): the last error is thrown.
 */
export const createStartUpRetry =
  ({ logger, backoff, signal }: { logger: Logger; backoff: Backoff; signal?: AbortSignal }): StartUpRetry =>
  async (method, call) => {
    const stopped = () => signal?.aborted === true;
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const failure = classifyStartError(error, attempt, backoff);
        if (failure.kind === 'fatal' || stopped()) throw error;
        logger.warn({ err: error, method, attempt: attempt + 1, delayMs: Math.round(failure.delayMs) }, 'a Telegram call at start failed, retrying');
        await pause(failure.delayMs, signal);
        if (stopped()) throw error;
      }
    }
  };
