import type { Logger } from 'pino';

/** While rounds keep failing (a full disk, say), the failure is logged once, then once in this time. */
export const FAILURE_LOG_EVERY_MS = 60_000;

/**
 * Runs `step` every `everyMs`, never two at once. `run()` starts one now; asked while one is under
 * way, it starts another as soon as that one ends (asks meanwhile count once): what a round was
 * asked for after it had looked (a change found while notifications are being sent) does not wait
 * for the next interval.
 */
export const repeat = (step: () => Promise<unknown>, everyMs: number, logger: Logger, now: () => number = Date.now) => {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** Since when rounds fail, how many did, and when that was last logged. */
  let failing: { since: number; rounds: number; loggedAt: number } | undefined;

  // The store or Telegram failed this time: the next round tries again.
  const failed = (error: unknown) => {
    const at = now();
    if (failing === undefined) {
      failing = { since: at, rounds: 1, loggedAt: at };
      logger.error({ err: error }, 'watches: a round failed');
      return;
    }
    failing.rounds += 1;
    if (at - failing.loggedAt < FAILURE_LOG_EVERY_MS) return;
    failing.loggedAt = at;
    logger.error({ err: error, failedRounds: failing.rounds, failingForSeconds: Math.round((at - failing.since) / 1000) }, 'watches: a round failed');
  };
  const succeeded = () => {
    if (failing === undefined) return;
    logger.info({ failedRounds: failing.rounds, failingForSeconds: Math.round((now() - failing.since) / 1000) }, 'watches: rounds succeed again');
    failing = undefined;
  };

  const run = () => {
    if (stopped) return;
    if (current !== undefined) {
      again = true;
      return;
    }
    again = false;
    current = step()
      .then(succeeded, failed)
      .finally(() => {
        current = undefined;
        if (again) run();
      });
  };
  const timer = setInterval(run, everyMs);
  const settled = async () => {
    while (current !== undefined) await current;
  };
  return {
    run,
    /** Resolves once no round is under way (nor asked to run again). */
    settled,
    /** No new round; resolves once the one under way (and any it was asked to run again) ends. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await settled();
    },
  };
};
