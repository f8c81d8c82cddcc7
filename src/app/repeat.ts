import type { Logger } from 'pino';

/**
 * Runs `step` every `everyMs`, never two at once. `run()` starts one now; asked while one is under
 * way, it starts another as soon as that one ends (asks meanwhile count once): what a round was
 * asked for after it had looked (a change found while notifications are being sent) does not wait
 * for the next interval.
 */
export const repeat = (step: () => Promise<unknown>, everyMs: number, logger: Logger) => {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (current !== undefined) {
      again = true;
      return;
    }
    again = false;
    current = step()
      // The store or Telegram failed this time: the next round tries again.
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, 'watches: a round failed'),
      )
      .finally(() => {
        current = undefined;
        if (again) run();
      });
  };
  const timer = setInterval(run, everyMs);
  return {
    run,
    /** No new round; resolves once the one under way (and any it was asked to run again) ends. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (current !== undefined) await current;
    },
  };
};
