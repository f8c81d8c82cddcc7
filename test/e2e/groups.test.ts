import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('in a group', () => {
  it('answers /order@botname as a reply to the command', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const group = h.api.createGroup({ type: 'supergroup', title: 'Отдел продаж' });
    const command = h.api.sendText({ from: user, chat: group, text: '/order@order_lookup_bot 0007300100' });
    const reply = await h.api.nextBotMessage(group.id);
    expect(reply.reply_to_message_id).toBe(command.message_id);
    expect(reply.text).toContain('Заказ № 0007300100');
  });

  // Privacy mode off: Telegram sends the bot every message of the group, other bots' commands too.
  const readingEverything = async (test: () => Promise<void>) => {
    h.api.setPrivacyMode(false);
    try {
      await test();
    } finally {
      h.api.setPrivacyMode(true);
    }
  };

  it('ignores a command addressed to another bot', () =>
    readingEverything(async () => {
      const user = h.api.createUser({ language_code: 'ru' });
      const group = h.api.createGroup({ type: 'supergroup' });
      h.api.sendText({ from: user, chat: group, text: '/order@some_other_bot 0007300100' });
      await h.settle();
      expect(h.api.messagesIn(group.id)).toEqual([]);
    }));

  it('never answers commands addressed to another bot, however many', () => readingEverything(async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    // One more than FLOOD_LIMIT_PER_MINUTE's default: the flood limit must not answer them either.
    for (let i = 0; i < 31; i += 1) h.api.sendText({ from: user, chat: group, text: `/order@some_other_bot ${i}` });
    await h.settle();
    expect(h.api.messagesIn(group.id)).toEqual([]);
    const reply = await h.ask(user, '/order@order_lookup_bot 0007300100', group);
    expect(reply.text).toContain('Order No. 0007300100');
  }));

  it('answers in the same forum topic, and pages there by editing', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const forum = h.api.createGroup({ type: 'supergroup', forum: true, title: 'Sales' });
    const command = h.api.sendText({ from: user, chat: forum, text: '/spec@order_lookup_bot ДП-77/2026', threadId: 42 });
    const reply = await h.api.nextBotMessage(forum.id);
    expect(reply.message_thread_id).toBe(42);
    expect(reply.reply_to_message_id).toBe(command.message_id);
    const { message } = await h.press(user, reply, h.button(reply, '▶'));
    expect(message?.text.split('\n')[0]).toBe('Specifications 6–8 of 8');
    expect(h.api.messagesIn(forum.id)).toHaveLength(1);
  });
});
