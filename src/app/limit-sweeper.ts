import type { Logger } from 'pino';
import type { LimitStore } from '../store/store.ts';

export type LimitSweeperOptions = { limits: Pick<LimitStore, 'sweep'>; logger: Logger; everyMs?: number; now?: () => number };

/**
 * Forgets ended flood windows and quiet periods every `everyMs`, off the path of updates (a
 * limiter never scans on an update). A sweep that fails is logged and tried again next time; a
 * sweep still running when the next is due is not doubled. The timer does not keep the process up.
 */
export const startLimitSweeper = ({ limits, logger, everyMs = 60_000, now = Date.now }: LimitSweeperOptions) => {
  let running: Promise<void> | undefined;
  const sweep = (): Promise<void> =>
    (running ??= Promise.resolve()
      .then(() => limits.sweep(now()))
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping ended rate limits failed: tried again later'))
      .finally(() => (running = undefined)));
  const timer = setInterval(() => void sweep(), everyMs).unref();
  return {
    /** Sweeps now (tests); resolves when done, never rejects. */
    sweep,
    stop: () => clearInterval(timer),
  };
};
