import { pino } from 'pino';
import { TelegramError } from '../../src/telegram/telegraf/core.ts';
import { describe, expect, it } from 'vitest';
import type { CallApi } from '../../src/telegram/telegraf/core.ts';
import { retryingRateLimits } from '../../src/telegram/retry-after.ts';
import { HandlerDeadlineError, runInUpdateScope } from '../../src/telegram/update-scope.ts';

const tooMany = (retryAfter: number) =>
  new TelegramError({ error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } });

/** A Bot API whose every call fails with `error` the first `failures` times; the calls are counted. */
const failingApi = (error: Error, failures: number) => {
  const calls: string[] = [];
  const callApi = (async (method: string) => {
    calls.push(method);
    if (calls.length <= failures) throw error;
    return true;
  }) as unknown as CallApi;
  return { callApi, calls };
};

const logger = pino({ level: 'silent' });
const send = (callApi: CallApi) => callApi('sendMessage', { chat_id: 1, text: 'x' });

describe('retryingRateLimits', () => {
  it('waits at least a second on a 429 that asks for 0 seconds', async () => {
    const waits: number[] = [];
    const { callApi, calls } = failingApi(tooMany(0), 2);
    await send(retryingRateLimits(callApi, { logger, sleep: async (ms) => void waits.push(ms) }));
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
  });

  it('waits retry_after, and gives up after three attempts or a wait over the maximum', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const storm = failingApi(tooMany(2), 5);
    await expect(send(retryingRateLimits(storm.callApi, { logger, sleep }))).rejects.toMatchObject({ code: 429 });
    expect(storm.calls).toHaveLength(3);
    expect(waits).toEqual([2000, 2000]);
    const long = failingApi(tooMany(120), 1);
    await expect(send(retryingRateLimits(long.callApi, { logger, sleep }))).rejects.toMatchObject({ code: 429 });
    expect(long.calls).toHaveLength(1);
  });

  it('passes any other failure on at once', async () => {
    const refused = new TelegramError({ error_code: 400, description: 'Bad Request: chat not found' });
    const { callApi, calls } = failingApi(refused, 1);
    await expect(send(retryingRateLimits(callApi, { logger }))).rejects.toBe(refused);
    expect(calls).toHaveLength(1);
  });

  it('cuts a 429 wait short at the handler deadline', async () => {
    const { callApi } = failingApi(tooMany(30), 1);
    const startedAt = Date.now();
    const outcome = await runInUpdateScope({ updateId: 1, deadlineMs: 200, logger }, () => send(retryingRateLimits(callApi, { logger }))).catch(
      (error: unknown) => error,
    );
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(outcome).toBeInstanceOf(HandlerDeadlineError);
    expect(outcome).toMatchObject({ method: 'sendMessage', updateId: 1, cause: { code: 429 } });
  });
});
