import type { ChangeFeed } from './feed.ts';

export interface WaitOptions {
  /** default: the emulator's waitTimeoutMs */
  timeoutMs?: number;
}

export interface WaitContext {
  feed: ChangeFeed;
  timeoutMs: number;
  /** what the emulator saw, appended to a timeout's message */
  diagnostics(): string;
  /** waits still running when the emulator closes are rejected through this */
  track(cancel: (reason: Error) => void): () => void;
}

/** Probes over state outside the emulator (a database the bot writes) see no change events. */
const RECHECK_MS = 25;

/**
 * Resolves with the first value the probe returns other than undefined, re-checking whenever the
 * emulator's state changes (and every 25 ms besides). A probe that throws fails the wait at once.
 */
export function waitUntil<T>(
  context: WaitContext,
  what: string,
  probe: () => T | undefined,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? context.timeoutMs;
  // captured now so that a timeout points at the test line that waited, not at a timer
  const origin = new Error('origin');
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(recheck);
      unsubscribe();
      untrack();
      outcome();
    };
    const check = (): void => {
      try {
        const value = probe();
        if (value !== undefined) settle(() => resolve(value));
      } catch (error) {
        settle(() => reject(error instanceof Error ? error : new Error(String(error))));
      }
    };
    const timer = setTimeout(() => {
      const error = new Error(`bot API emulator: timed out after ${timeoutMs} ms waiting for ${what}\n${context.diagnostics()}`);
      error.stack = `${error.message}\n${origin.stack?.split('\n').slice(1).join('\n') ?? ''}`;
      settle(() => reject(error));
    }, timeoutMs);
    const recheck = setInterval(check, RECHECK_MS);
    const unsubscribe = context.feed.subscribe(check);
    const untrack = context.track((reason) => settle(() => reject(reason)));
    check();
  });
}
