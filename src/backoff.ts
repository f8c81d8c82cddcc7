// How every retry of the bot waits: the portal's one retry, getUpdates after a failure, the
// Telegram calls at start-up.

export type Backoff = { baseMs: number; maxMs: number; random?: () => number };

/**
 * The wait before retry number `attempt` (0 for the first): exponential from `baseMs`, capped at
 * `maxMs`, with "equal jitter" (between half and all of the step) so that instances drift apart.
 */
export const backoffDelay = (attempt: number, { baseMs, maxMs, random = Math.random }: Backoff): number => {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return step / 2 + (random() * step) / 2;
};

/** Resolves after `ms`, or at once when `signal` aborts. */
export const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
    if (signal?.aborted === true) done();
  });
