import { TelegramError } from './telegraf/core.ts';
import { MalformedUpdatesError } from './update-schema.ts';

import { backoffDelay, type Backoff } from '../backoff.ts';

/** What to do after a failed getUpdates. */
export type PollFailure =
  | { kind: 'fatal'; reason: string }
  | { kind: 'retry'; reason: string; delayMs: number; backoff: boolean };

export const DEFAULT_BACKOFF: Backoff = { baseMs: 500, maxMs: 30_000 };

/** The least a 429 or a 409 makes us wait, whatever its retry_after says (0 would poll hundreds of times a second). */
export const MIN_RETRY_AFTER_MS = 1000;

/** How long a 429 asks to wait, never under the floor; 5 s when it does not say. */
export const retryAfterMs = (error: TelegramError): number => Math.max(MIN_RETRY_AFTER_MS, (error.parameters?.retry_after ?? 5) * 1000);

export const classifyPollError = (error: unknown, attempt: number, backoff: Backoff): PollFailure => {
  const retry = (reason: string) => ({ kind: 'retry', reason, delayMs: backoffDelay(attempt, backoff), backoff: true }) as const;
  if (error instanceof MalformedUpdatesError) return retry('malformed answer');
  // Anything but a Telegram answer is the request failing on the way: retried.
  if (!(error instanceof TelegramError)) return retry('network');
  if (error.code === 429) return { kind: 'retry', reason: 'rate limited', delayMs: retryAfterMs(error), backoff: false };
  // Another replica polls (or polled a moment ago, during a hand-over): never faster than once a second.
  if (error.code === 409) return { ...retry('conflict'), delayMs: Math.max(MIN_RETRY_AFTER_MS, backoffDelay(attempt, backoff)) };
  if (error.code >= 500) return retry('server error');
  // 401 (bad or revoked token), 404 (wrong token or API root), 400: asking again cannot help.
  return { kind: 'fatal', reason: error.description };
};

/**
 * After a failed start-up call (getMe, deleteWebhook, setWebhook): only a refused token is final
 * (401, or 404 for a token Telegram does not know); anything else may pass, so it is retried.
 */
export const classifyStartError = (error: unknown, attempt: number, backoff: Backoff): PollFailure => {
  if (error instanceof TelegramError && (error.code === 401 || error.code === 404)) return { kind: 'fatal', reason: error.description };
  if (error instanceof TelegramError && error.code === 429) return { kind: 'retry', reason: 'rate limited', delayMs: retryAfterMs(error), backoff: false };
  return { kind: 'retry', reason: error instanceof TelegramError ? 'refused' : 'network', delayMs: backoffDelay(attempt, backoff), backoff: true };
};

