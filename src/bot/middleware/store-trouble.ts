import type { Logger } from 'pino';
import { StoreUnavailableError } from '../../store/errors.ts';

/** A database that is down fails every update: one line a minute says so, not one per update. */
const LOG_EVERY_MS = 60_000;

/**
 * What a limiter does when the store cannot answer: `log(error)` warns at most once a minute, and
 * is true when the error is the store's (the limiter then decides: let through, or stay quiet).
 * Any other error is a bug, and goes on to the error boundary.
 */
export const createStoreTrouble = (logger: Logger, message: string, now: () => number) => {
  let loggedAt: number | undefined;
  return (error: unknown): boolean => {
    if (!(error instanceof StoreUnavailableError)) return false;
    const at = now();
    // A clock moved back counts as a minute passed: better one line too many than silence.
    if (loggedAt === undefined || at - loggedAt >= LOG_EVERY_MS || at < loggedAt) {
      loggedAt = at;
      logger.warn({ err: error }, message);
    }
    return true;
  };
};
