import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Update, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// The emulator's my_chat_member updates (the bot added to or removed from a group) and forwarded
// messages (Bot API 7.0's forward_origin), as Telegram sends them.

let api: BotApi;
let ann: User;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann', username: 'ann' });
});
afterEach(() => api.close());

const botUser = () => ({ id: api.botUser.id, is_bot: true, first_name: api.botUser.first_name, username: api.botUser.username });

describe('the bot added to and removed from a group', () => {
  it('sends my_chat_member with who did it and the old and new status, allowed by default', async () => {
    const group = api.createGroup({ title: 'Sales' });
    api.addBotToGroup({ chat: group, by: ann });
    api.removeBotFromGroup({ chat: group, by: ann, status: 'kicked' });
    api.addBotToGroup({ chat: group, by: ann, status: 'administrator' });
    const updates = await ok<Update.MyChatMemberUpdate[]>('getUpdates');
    expect(updates.map((update) => update.my_chat_member)).toEqual([
      { chat: group, from: ann, date: expect.any(Number), old_chat_member: { user: botUser(), status: 'left' }, new_chat_member: { user: botUser(), status: 'member' } },
      { chat: group, from: ann, date: expect.any(Number), old_chat_member: { user: botUser(), status: 'member' }, new_chat_member: { user: botUser(), status: 'kicked', until_date: 0 } },
      {
        chat: group,
        from: ann,
        date: expect.any(Number),
        old_chat_member: { user: botUser(), status: 'kicked', until_date: 0 },
        new_chat_member: expect.objectContaining({ user: botUser(), status: 'administrator', can_delete_messages: true }),
      },
    ]);
    // The one who added the bot is a member from then on.
    expect(await ok('getChatMember', { chat_id: group.id, user_id: ann.id })).toEqual({ user: ann, status: 'member' });
  });

  it('refuses to write to a group the bot was removed from, and writes again once it is back', async () => {
    const group = api.createGroup();
    api.addBotToGroup({ chat: group, by: ann });
    await ok('sendMessage', { chat_id: group.id, text: 'hello' });
    api.removeBotFromGroup({ chat: group, by: ann });
    await fails('sendMessage', { chat_id: group.id, text: 'hello' }, 403, 'Forbidden: bot is not a member of the supergroup chat');
    expect(await ok('getChatMember', { chat_id: group.id, user_id: api.botUser.id })).toEqual({ user: botUser(), status: 'left' });
    api.addBotToGroup({ chat: group, by: ann });
    await ok('sendMessage', { chat_id: group.id, text: 'back' });
  });

  it('refuses what Telegram would not do: add the bot twice, remove it when out, add it to a private chat', () => {
    const group = api.createGroup();
    expect(() => api.removeBotFromGroup({ chat: group, by: ann })).toThrow(/not in chat/);
    api.addBotToGroup({ chat: group, by: ann });
    expect(() => api.addBotToGroup({ chat: group, by: ann })).toThrow(/already in chat/);
    expect(() => api.removeBotFromGroup({ chat: group, by: ann, status: 'member' })).toThrow(/does not remove/);
    expect(() => api.addBotToGroup({ chat: { id: ann.id, type: 'private', first_name: 'Ann' }, by: ann })).toThrow(/private chat/);
  });
});

describe('forwarded messages', () => {
  it('carry forward_origin: the user, or only the name of one who hides their account; a reply to one carries it too', async () => {
    const bob = api.createUser({ first_name: 'Bob', last_name: 'Lee' });
    const forwarded = api.sendText({ from: ann, text: 'please add me', forwardOrigin: { type: 'user', date: 1_795_000_000, sender_user: bob } });
    const hidden = api.sendText({ from: ann, text: 'me too', forwardOrigin: { type: 'hidden_user', date: 1_795_000_000, sender_user_name: 'Carl' } });
    api.sendText({ from: ann, text: '/allow', replyTo: forwarded });
    const updates = await ok<Update.MessageUpdate[]>('getUpdates');
    const [first, second, reply] = updates.map((update) => update.message as unknown as Record<string, unknown>);
    expect(first).toMatchObject({ from: ann, text: 'please add me', forward_origin: { type: 'user', date: 1_795_000_000, sender_user: bob } });
    expect(second).toMatchObject({ forward_origin: { type: 'hidden_user', date: 1_795_000_000, sender_user_name: 'Carl' } });
    expect(reply).toMatchObject({ text: '/allow', reply_to_message: { message_id: forwarded.message_id, forward_origin: { type: 'user', sender_user: bob } } });
    expect(hidden.message_id).toBe(forwarded.message_id + 1);
    expect(reply?.forward_origin).toBeUndefined();
  });
});
