import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Update, User, UserFromGetMe } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// Privacy mode (BotFather's Group Privacy), getMe's can_read_all_group_messages, and the messages
// issue 30 reads: mentions, replies, forwarded messages, captions.

let api: BotApi;
let ann: User;
const { ok } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
});
afterEach(() => api.close());

/** The texts (or captions) of the messages the bot receives from now on. */
const received = async (): Promise<string[]> => {
  const updates = await ok<Update[]>('getUpdates', { timeout: 0 });
  if (updates.length > 0) await ok('getUpdates', { offset: updates.at(-1)!.update_id + 1, timeout: 0 });
  return updates.flatMap((update) => {
    if (!('message' in update)) return [];
    const message = update.message as Message & { text?: string; caption?: string };
    return [message.text ?? message.caption ?? '(no text)'];
  });
};

describe('privacy mode', () => {
  it('is on for a new bot, and getMe says so until BotFather turns it off', async () => {
    expect((await ok<UserFromGetMe>('getMe')).can_read_all_group_messages).toBe(false);
    api.setPrivacyMode(false);
    expect((await ok<UserFromGetMe>('getMe')).can_read_all_group_messages).toBe(true);
    api.setPrivacyMode(true);
    expect((await ok<UserFromGetMe>('getMe')).can_read_all_group_messages).toBe(false);
    const open = await startBotApi({ privacyMode: false });
    try {
      expect(open.botUser.can_read_all_group_messages).toBe(true);
    } finally {
      await open.close();
    }
  });

  it('sends the bot from a group only commands, mentions of it and replies to its messages', async () => {
    const group = api.createGroup();
    const first = api.sendText({ from: ann, chat: group, text: 'hello everyone, order 0007300100' });
    api.sendText({ from: ann, chat: group, text: '/order 0007300100' });
    api.sendText({ from: ann, chat: group, text: '/order@Order_Lookup_Bot 0007300100' });
    api.sendText({ from: ann, chat: group, text: '/order@other_bot 0007300100' });
    api.sendText({ from: ann, chat: group, text: '@ORDER_LOOKUP_BOT 0007300100' });
    api.sendText({ from: ann, chat: group, text: 'ask @other_bot 0007300100' });
    api.sendText({ from: ann, chat: group, text: 'a reply to Ann', replyTo: first });
    const sent = await ok<Message.TextMessage>('sendMessage', { chat_id: group.id, text: 'found' });
    api.sendText({ from: ann, chat: group, text: 'a reply to the bot', replyTo: sent });
    api.sendPhoto({ from: ann, chat: group, caption: 'photo of 0007300100' });
    api.sendPhoto({ from: ann, chat: group, caption: '@order_lookup_bot photo of 0007300100' });
    expect(await received()).toEqual([
      '/order 0007300100',
      '/order@Order_Lookup_Bot 0007300100',
      '@ORDER_LOOKUP_BOT 0007300100',
      'a reply to the bot',
      '@order_lookup_bot photo of 0007300100',
    ]);
    // What the bot did not get is still in the group: it can be replied to.
    expect(api.sendText({ from: ann, chat: group, text: 'again', replyTo: first }).reply_to_message?.message_id).toBe(first.message_id);
  });

  it('sends everything when it is off, or to a bot that is an administrator, and always in a private chat', async () => {
    const group = api.createGroup();
    api.sendText({ from: ann, text: 'private 0007300100' });
    api.sendText({ from: ann, chat: group, text: 'chatter' });
    api.setMemberStatus(group, api.botUser.id, 'administrator');
    api.sendText({ from: ann, chat: group, text: 'to an admin bot' });
    api.setMemberStatus(group, api.botUser.id, 'member');
    api.sendText({ from: ann, chat: group, text: 'to a member bot' });
    api.setPrivacyMode(false);
    api.sendText({ from: ann, chat: group, text: 'with privacy off' });
    expect(await received()).toEqual(['private 0007300100', 'to an admin bot', 'with privacy off']);
  });
});

describe("what a user's message carries", () => {
  it('marks @mentions as Telegram does, apart from commands and e-mail addresses', () => {
    const message = api.sendText({ from: ann, text: '@order_lookup_bot see /order@order_lookup_bot, mail ann@example.com, @abc, @sales_team.' });
    expect(message.entities).toEqual([
      { type: 'mention', offset: 0, length: 17 },
      { type: 'bot_command', offset: 22, length: 23 },
      { type: 'mention', offset: 75, length: 11 },
    ]);
  });

  it('gives a forwarded message its origin', () => {
    const origin = { type: 'hidden_user' as const, date: 1_700_000_000, sender_user_name: 'Customer' };
    const message = api.sendText({ from: ann, text: 'где заказ 7300100?', forwardOrigin: origin });
    expect(message).toMatchObject({ text: 'где заказ 7300100?', forward_origin: origin });
  });

  it('sends a photo with its caption and caption entities, and no text', () => {
    const message = api.sendPhoto({ from: ann, caption: 'ДП-77/2026 @order_lookup_bot' }) as Message.PhotoMessage;
    expect(message.caption).toBe('ДП-77/2026 @order_lookup_bot');
    expect(message.caption_entities).toEqual([{ type: 'mention', offset: 11, length: 17 }]);
    expect(message.photo.length).toBeGreaterThan(0);
    expect('text' in message).toBe(false);
    expect(() => api.sendPhoto({ from: ann, caption: 'x'.repeat(1025) })).toThrow(/at most 1024/);
  });
});
