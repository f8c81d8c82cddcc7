import { TelegramError } from '../../src/telegram/telegraf/core.ts';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/backoff.ts';
import { classifyPollError, DEFAULT_BACKOFF } from '../../src/telegram/retry-policy.ts';

const telegramError = (error_code: number, retry_after?: number) =>
  new TelegramError({ error_code, description: `error ${error_code}`, ...(retry_after === undefined ? {} : { parameters: { retry_after } }) });

describe('backoffDelay', () => {
  it('doubles from 0.5 s, caps at 30 s, and jitters between half and all of the step', () => {
    const low = (attempt: number) => backoffDelay(attempt, { ...DEFAULT_BACKOFF, random: () => 0 });
    const high = (attempt: number) => backoffDelay(attempt, { ...DEFAULT_BACKOFF, random: () => 1 });
    expect([0, 1, 2, 3].map(high)).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map(low)).toEqual([250, 500, 1000, 2000]);
    expect(high(10)).toBe(30_000);
    expect(low(50)).toBe(15_000);
  });
});

describe('classifyPollError', () => {
  const classify = (error: unknown) => classifyPollError(error, 0, { ...DEFAULT_BACKOFF, random: () => 1 });

  it('retries network failures, 5xx and conflicts with backoff', () => {
    expect(classify(new Error('socket hang up'))).toMatchObject({ kind: 'retry', reason: 'network', delayMs: 500, backoff: true });
    expect(classify(telegramError(502))).toMatchObject({ kind: 'retry', reason: 'server error', backoff: true });
    expect(classify(telegramError(409))).toMatchObject({ kind: 'retry', reason: 'conflict', backoff: true });
  });

  it('waits at least a second after a 409, growing with each one: a conflict never turns into a hot loop', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6].map((attempt) => {
      const failure = classifyPollError(telegramError(409), attempt, { ...DEFAULT_BACKOFF, random: () => 0 });
      return failure.kind === 'retry' ? failure.delayMs : undefined;
    });
    expect(delays).toEqual([1000, 1000, 1000, 2000, 4000, 8000, 15_000]);
    expect(classifyPollError(telegramError(409), 0, { baseMs: 1, maxMs: 1 })).toMatchObject({ delayMs: 1000 });
  });

  it('waits what a 429 asks, 5 s when it does not say', () => {
    expect(classify(telegramError(429, 3))).toEqual({ kind: 'retry', reason: 'rate limited', delayMs: 3000, backoff: false });
    expect(classify(telegramError(429))).toMatchObject({ delayMs: 5000 });
  });

  it('gives up on what asking again cannot fix', () => {
    for (const code of [400, 401, 404]) expect(classify(telegramError(code))).toMatchObject({ kind: 'fatal' });
  });
});

describe('the retry floor', () => {
  it('waits at least a second on a 429 that asks for 0 seconds', () => {
    expect(classifyPollError(telegramError(429, 0), 0, DEFAULT_BACKOFF)).toMatchObject({ kind: 'retry', delayMs: 1000 });
  });
});
