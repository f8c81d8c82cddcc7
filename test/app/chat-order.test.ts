import { pino } from 'pino';
import type { Update } from '../../src/telegram/telegraf/core.ts';
import { describe, expect, it } from 'vitest';
import { chatOf, createChatOrder } from '../../src/app/chat-order.ts';
import { postgresBackend } from '../store/store-backends.ts';

// Updates of one chat taken by two webhook replicas at once: Telegram queues button presses by
// the user who pressed, apart from the chat's messages, so only the shared store keeps them in order.

const logger = pino({ level: 'silent' });
const GROUP = { id: -100500, type: 'supergroup' as const, title: 'Sales' };
const press = (updateId: number, userId: number, chat: { id: number; type: 'supergroup' | 'private' } = GROUP): Update =>
  ({
    update_id: updateId,
    callback_query: {
      id: String(updateId),
      from: { id: userId, is_bot: false, first_name: 'U' },
      chat_instance: '1',
      data: 'x',
      message: { message_id: 1, date: 0, chat },
    },
  }) as Update;
const message = (updateId: number, userId: number): Update =>
  ({ update_id: updateId, message: { message_id: updateId, date: 0, chat: GROUP, from: { id: userId, is_bot: false, first_name: 'U' }, text: '/order 1' } }) as Update;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('order within a chat across webhook replicas', () => {
  const backend = postgresBackend();

  it('orders every update of a chat; an inline query has none', () => {
    expect(chatOf(press(1, 7))).toBe(GROUP.id);
    expect(chatOf(press(2, 7, { id: 7, type: 'private' }))).toBe(7);
    expect(chatOf(message(3, 7))).toBe(GROUP.id);
    expect(chatOf({ update_id: 4, inline_query: { id: '1', from: { id: 7, is_bot: false, first_name: 'U' }, query: 'q', offset: '' } })).toBeUndefined();
  });

  it('handles two members’ presses taken by two replicas one after the other', async () => {
    const place = await backend.place();
    const [one, two] = await Promise.all([place.open(), place.open()]);
    const replicas = [one, two].map((store, i) => createChatOrder({ coordination: store.coordination, owner: `replica-${i}`, logger, waitMs: 10_000 }));
    const events: string[] = [];
    const handler = (name: string) => async () => {
      events.push(`${name} start`);
      await sleep(150);
      events.push(`${name} end`);
    };
    await Promise.all([replicas[0]!(press(10, 1), handler('first')), sleep(20).then(() => replicas[1]!(press(11, 2), handler('second')))]);
    expect(events).toEqual(['first start', 'first end', 'second start', 'second end']);

    // A member's message and another's press (two queues at Telegram) wait for each other too.
    events.length = 0;
    await Promise.all([replicas[1]!(message(20, 3), handler('message')), sleep(20).then(() => replicas[0]!(press(21, 4), handler('press')))]);
    expect(events).toEqual(['message start', 'message end', 'press start', 'press end']);

    // Presses in two different groups do not wait for each other.
    events.length = 0;
    await Promise.all([
      replicas[0]!(press(12, 1), handler('a')),
      sleep(20).then(() => replicas[1]!(press(13, 2, { id: -100600, type: 'supergroup' }), handler('b'))),
    ]);
    expect(events.slice(0, 2)).toEqual(['a start', 'b start']);
  });
});
