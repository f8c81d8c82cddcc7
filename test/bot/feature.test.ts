import { describe, expect, test } from 'vitest';
import { Context, Telegram } from '../../src/telegram/telegraf/core.ts';
import type { Update, UserFromGetMe } from '../../src/telegram/telegraf/core.ts';
import type { BotContext } from '../../src/bot/context.ts';
import { chain, createFeature } from '../../src/bot/feature.ts';

const me: UserFromGetMe = { id: 1, is_bot: true, first_name: 'Bot', username: 'orders_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: true };
const contextOf = (update: object) => new Context(update as Update, new Telegram('1:x'), me) as BotContext;
const message = (text: string, entities = [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }]) =>
  contextOf({ update_id: 1, message: { message_id: 1, date: 0, chat: { id: 5, type: 'private', first_name: 'A' }, from: { id: 5, is_bot: false, first_name: 'A' }, text, entities } });
const press = () => contextOf({ update_id: 2, callback_query: { id: '1', chat_instance: '1', from: { id: 5, is_bot: false, first_name: 'A' }, data: 'x' } });

/** Which handler took the update, and with what payload; "next" when none did. */
const dispatch = async (ctx: BotContext) => {
  const seen: string[] = [];
  const feature = createFeature()
    .command('order', (c) => void seen.push(`order:${c.payload}`))
    .command(['spec', 'specification'], (c) => void seen.push(`spec:${c.payload}`))
    .on('callback_query', (c) => void seen.push(`press:${c.callbackQuery.id}`))
    .on('message', (_c, next) => (seen.push('message'), next()));
  await feature.middleware()(ctx, async () => void seen.push('next'));
  return seen;
};

describe('a feature', () => {
  test('runs the command its name matches exactly, with the text after it as the payload', async () => {
    expect(await dispatch(message('/order status production'))).toEqual(['order:status production']);
    expect(await dispatch(message('/specification ДП-77'))).toEqual(['spec:ДП-77']);
    expect(await dispatch(message('/Order 1'))).toEqual(['message', 'next']);
    expect(await dispatch(message('/orders 1'))).toEqual(['message', 'next']);
  });

  test('takes /cmd@this_bot in any case, and leaves /cmd@other_bot and mid-text commands alone', async () => {
    expect(await dispatch(message('/order@Orders_Bot 7300100'))).toEqual(['order:7300100']);
    expect(await dispatch(message('/order@other_bot 7300100'))).toEqual(['message', 'next']);
    expect(await dispatch(message('see /order 1', [{ type: 'bot_command', offset: 4, length: 6 }]))).toEqual(['message', 'next']);
    expect(await dispatch(message('/order 1', []))).toEqual(['message', 'next']);
  });

  test('routes a button press to its handler, and nothing else to it', async () => {
    expect(await dispatch(press())).toEqual(['press:1']);
  });

  test('cannot change once the bot runs it', () => {
    const feature = createFeature();
    feature.middleware();
    expect(() => feature.use(() => undefined)).toThrow(/cannot change/);
  });
});

describe('chain', () => {
  test('runs layers in order, each once, and the outer next after the last', async () => {
    const order: string[] = [];
    const run = chain(
      async (_ctx, next) => {
        order.push('a');
        await next();
        order.push('a after');
      },
      (_ctx, next) => (order.push('b'), next()),
      createFeature().on('message', (_ctx, next) => (order.push('c'), next())),
    );
    await run(message('hi', []), async () => void order.push('end'));
    expect(order).toEqual(['a', 'b', 'c', 'end', 'a after']);
  });

  test('a layer that does not call next ends the update there', async () => {
    const order: string[] = [];
    await chain(() => void order.push('stop'), () => void order.push('never'))(press(), async () => void order.push('end'));
    expect(order).toEqual(['stop']);
  });

  test('a failure of any layer reaches the caller', async () => {
    await expect(chain((_ctx, next) => next(), async () => Promise.reject(new Error('boom')))(press(), async () => undefined)).rejects.toThrow('boom');
  });

  test('a layer calling next twice is refused, not run twice', async () => {
    let after = 0;
    const run = chain(
      async (_ctx, next) => {
        await next();
        await next();
      },
      () => void (after += 1),
    );
    await expect(run(press(), async () => undefined)).rejects.toThrow('next() called multiple times');
    expect(after).toBe(1);
  });
});
