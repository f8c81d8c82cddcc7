import { TelegramError } from 'telegraf';

export type Backoff = { baseMs: number; maxMs: number; random?: () => number };

/** What to do after a failed getUpdates. */
export type PollFailure =
  | { kind: 'fatal'; reason: string }
  | { kind: 'retry'; reason: string; delayMs: number; backoff: boolean };

export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, maxMs: 30_000 };

/** Exponential, capped, with "equal jitter" (between half and all of the step) so instances drift apart. */
export const backoffDelay = (attempt: number, { baseMs, maxMs, random = Math.random }: Backoff): number => {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return step / 2 + (random() * step) / 2;
};

export const classifyPollError = (error: unknown, attempt: number, backoff: Backoff): PollFailure => {
  const retry = (reason: string) => ({ kind: 'retry', reason, delayMs: backoffDelay(attempt, backoff), backoff: true }) as const;
  // Anything but a Telegram answer is the request failing on the way: retried.
  if (!(error instanceof TelegramError)) return retry('network');
  if (error.code === 429) {
    return { kind: 'retry', reason: 'rate limited', delayMs: (error.parameters?.retry_after ?? 5) * 1000, backoff: false };
  }
  if (error.code === 409) return retry('conflict');
  if (error.code >= 500) return retry('server error');
  // 401 (bad or revoked token), 404 (wrong token or API root), 400: asking again cannot help.
  return { kind: 'fatal', reason: error.description };
};

/** Resolves after `ms`, or at once when `signal` aborts. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    if (signal.aborted) done();
  });
