import { pino } from 'pino';
import { TelegramError } from 'telegraf';
import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../../src/bot/context.ts';
import { telegramRetry } from '../../../src/bot/middleware/telegram-retry.ts';
import { HandlerDeadlineError, runInUpdateScope } from '../../../src/telegram/update-scope.ts';

const tooMany = (retryAfter: number) =>
  new TelegramError({ error_code: 429, description: `Too Many Requests: retry after ${retryAfter}`, parameters: { retry_after: retryAfter } });

/** A context whose every Telegram call fails with `error` first `failures` times; the calls are counted. */
const fakeContext = (error: Error, failures: number) => {
  const calls: string[] = [];
  const telegram = {
    callApi: async (method: string) => {
      calls.push(method);
      if (calls.length <= failures) throw error;
      return true;
    },
  };
  return { ctx: { telegram, update: { update_id: 1 } } as unknown as BotContext, calls };
};

const logger = pino({ level: 'silent' });

describe('telegramRetry', () => {
  it('waits at least a second on a 429 that asks for 0 seconds', async () => {
    const waits: number[] = [];
    const { ctx, calls } = fakeContext(tooMany(0), 2);
    const middleware = telegramRetry({ logger, sleep: async (ms) => void waits.push(ms) });
    await middleware(ctx, () => ctx.telegram.callApi('sendMessage', { chat_id: 1, text: 'x' }).then(() => undefined));
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
  });

  it('cuts a 429 wait short at the handler deadline', async () => {
    const { ctx } = fakeContext(tooMany(30), 1);
    const middleware = telegramRetry({ logger });
    const startedAt = Date.now();
    const outcome = await runInUpdateScope({ updateId: 1, deadlineMs: 200, logger }, async () => {
      await middleware(ctx, () => ctx.telegram.callApi('sendMessage', { chat_id: 1, text: 'x' }).then(() => undefined));
    }).catch((error: unknown) => error);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(outcome).toBeInstanceOf(HandlerDeadlineError);
    expect(outcome).toMatchObject({ method: 'sendMessage', updateId: 1, cause: { code: 429 } });
  });
});
