import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '../../backoff.ts';
import type { PortalClient } from '../client.ts';
import { isTransient, PortalTimeoutError } from '../errors.ts';
import { intercept, outcomeOf, type OnEvent, type ResilienceLogger } from './intercept.ts';

export type RetryOptions = {
  logger?: ResilienceLogger;
  retries?: number;
  baseDelayMs?: number;
  onEvent?: OnEvent;
};

/**
 * A failure another try may get past, but not a timeout: the user has already waited the whole
 * timeout once, and a second would double it.
 */
const retriedAtOnce = (error: unknown): boolean => isTransient(error) && !(error instanceof PortalTimeoutError);


export const withRetry = (client: PortalClient, { logger, retries = 1, baseDelayMs = 200, onEvent }: RetryOptions = {}): PortalClient =>
  intercept(async (call, send) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(client);
      } catch (error) {
        if (attempt > retries || !retriedAtOnce(error)) throw error;
        const delayMs = Math.round(backoffDelay(attempt - 1, { baseMs: baseDelayMs, maxMs: Infinity }));
        logger?.warn({ err: error, endpoint: call.endpoint, attempt, delayMs }, 'portal call failed, retrying');
        onEvent?.({ type: 'retry', endpoint: call.endpoint, outcome: outcomeOf(error), ms: delayMs });
        await sleep(delayMs);
      }
    }
  });
