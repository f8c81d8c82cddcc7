import { pino } from 'pino';
import type { Update } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { createChatOrder, crossQueueChat } from '../../src/app/chat-order.ts';
import { postgresBackend } from '../store/store-backends.ts';

// Button presses of two members of a group, taken by two webhook replicas at once: Telegram
// queues presses by the user who pressed, so only the shared store keeps them in order.

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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('order within a chat across webhook replicas', () => {
  const backend = postgresBackend();

  it('needs the store only for a press in a group, which Telegram queues by user', () => {
    expect(crossQueueChat(press(1, 7))).toBe(GROUP.id);
    expect(crossQueueChat(press(2, 7, { id: 7, type: 'private' }))).toBeUndefined();
    expect(crossQueueChat({ update_id: 3, message: { message_id: 1, date: 0, chat: { id: GROUP.id, type: 'supergroup', title: 'S' }, text: 'hi' } } as Update)).toBeUndefined();
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

    // Presses in two different groups do not wait for each other.
    events.length = 0;
    await Promise.all([
      replicas[0]!(press(12, 1), handler('a')),
      sleep(20).then(() => replicas[1]!(press(13, 2, { id: -100600, type: 'supergroup' }), handler('b'))),
    ]);
    expect(events.slice(0, 2)).toEqual(['a start', 'b start']);
  });
});
