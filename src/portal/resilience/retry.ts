import { setTimeout as sleep } from 'node:timers/promises';
import type { PortalClient } from '../client.ts';
import { PortalHttpError, PortalNetworkError } from '../errors.ts';
import { intercept, outcomeOf, type OnEvent, type ResilienceLogger } from './intercept.ts';

export type RetryOptions = {
  logger?: ResilienceLogger;
  retries?: number;
  baseDelayMs?: number;
  onEvent?: OnEvent;
};

/**
 * Only failures where the portal may answer next time. A timeout is not retried: the user has
 * already waited the whole timeout once. 4xx, success:false and schema errors would repeat.
 */
export const isRetryable = (error: unknown): boolean =>
  error instanceof PortalNetworkError || (error instanceof PortalHttpError && error.status >= 500);

/** Exponential backoff with "equal jitter": half fixed, half random, so retries do not align. */
const backoff = (baseDelayMs: number, attempt: number): number => {
  const delay = baseDelayMs * 2 ** (attempt - 1);
  return Math.round(delay / 2 + Math.random() * (delay / 2));
};

export const withRetry = (client: PortalClient, { logger, retries = 1, baseDelayMs = 200, onEvent }: RetryOptions = {}): PortalClient =>
  intercept(async (call, send) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(client);
      } catch (error) {
        if (attempt > retries || !isRetryable(error)) throw error;
        const delayMs = backoff(baseDelayMs, attempt);
        logger?.warn({ err: error, endpoint: call.endpoint, attempt, delayMs }, 'portal call failed, retrying');
        onEvent?.({ type: 'retry', endpoint: call.endpoint, outcome: outcomeOf(error), ms: delayMs });
        await sleep(delayMs);
      }
    }
  });
