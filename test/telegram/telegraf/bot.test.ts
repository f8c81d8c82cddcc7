import { describe, expect, it } from 'vitest';
import { createTelegraf } from '../../../src/telegram/telegraf/bot.ts';
import type { Context, Update } from '../../../src/telegram/telegraf/core.ts';

const TOKEN = '123456:bot-adapter-test';
const ME = { id: 123456, is_bot: true as const, first_name: 'Bot', username: 'adapter_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: true };
const update = (id: number): Update => ({
  update_id: id,
  message: { message_id: id, date: 1_780_000_000, chat: { id: 7, type: 'private', first_name: 'U' }, from: { id: 7, is_bot: false, first_name: 'U' }, text: 'hi' },
});

const made = () => {
  const bot = createTelegraf<Context>(TOKEN, { apiRoot: 'http://127.0.0.1:9/' });
  bot.botInfo = ME;
  return bot;
};

describe("the bot's handling of an update", () => {
  it('gives the one middleware a context with the update, the bot itself and the shared Telegram, and its errors to catch', async () => {
    const bot = made();
    const seen: Array<{ text: unknown; me: string; shared: boolean }> = [];
    const caught: Array<{ message: string; updateId: number }> = [];
    bot.use(async (ctx) => {
      seen.push({ text: (ctx.message as { text?: string } | undefined)?.text, me: ctx.me, shared: ctx.telegram === bot.context.telegram });
      if (ctx.update.update_id === 2) throw new Error('boom');
    });
    bot.catch((error, ctx) => void caught.push({ message: (error as Error).message, updateId: ctx.update.update_id }));
    await bot.handleUpdate(update(1));
    await bot.handleUpdate(update(2));
    expect(seen).toEqual([
      { text: 'hi', me: 'adapter_bot', shared: true },
      { text: 'hi', me: 'adapter_bot', shared: true },
    ]);
    expect(caught).toEqual([{ message: 'boom', updateId: 2 }]);
  });

  it('runs several middlewares in order, and rejects without a catch, as Telegraf does', async () => {
    const bot = made();
    const order: string[] = [];
    bot.use(async (_ctx, next) => {
      order.push('first');
      await next();
    });
    bot.use(async () => {
      order.push('second');
      throw new Error('unhandled');
    });
    await expect(bot.handleUpdate(update(3))).rejects.toThrow('unhandled');
    expect(order).toEqual(['first', 'second']);
  });
});
