import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

let api: BotApi;
let ann: User;
let bob: User;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
  bob = api.createUser({ first_name: 'Bob' });
});
afterEach(() => api.close());

const send = (chat_id: number, text: string) =>
  ok<Message.TextMessage>('sendMessage', { chat_id, text, reply_markup: { inline_keyboard: [[{ text: '▶', callback_data: 'next' }]] } });

describe('a user deletes a message', () => {
  it('in a private chat, a bot message too: it is gone for the bot and for presses', async () => {
    api.sendText({ from: ann, text: 'hi' });
    const sent = await send(ann.id, 'results');
    api.deleteMessage({ from: ann, message: sent });
    expect(api.messagesIn(ann.id)).toEqual([]);
    expect(api.messagesIn(ann.id, { includeDeleted: true })).toMatchObject([{ message_id: sent.message_id, deleted: true }]);
    await fails('editMessageText', { chat_id: ann.id, message_id: sent.message_id, text: 'page 2' }, 400, 'Bad Request: message to edit not found');
    await fails('deleteMessage', { chat_id: ann.id, message_id: sent.message_id }, 400, 'Bad Request: message to delete not found');
    expect(() => api.pressButton({ from: ann, message: sent, data: 'next' })).toThrow(/never sent, or deleted/);
    expect(() => api.deleteMessage({ from: ann, message: sent })).toThrow(/never sent, or deleted/);
  });

  it('in a group, only their own, unless an admin who may delete messages', async () => {
    const group = api.createGroup();
    const own = api.sendText({ from: ann, chat: group, text: 'hello' });
    const bots = await send(group.id, 'results');
    expect(() => api.deleteMessage({ from: ann, message: bots })).toThrow(/may not delete others' messages/);
    api.setMemberStatus(group, bob, 'administrator', { rights: { can_delete_messages: false } });
    expect(() => api.deleteMessage({ from: bob, message: own })).toThrow(/may not delete others' messages/);
    api.deleteMessage({ from: ann, message: own });
    api.setMemberStatus(group, bob, 'administrator');
    api.deleteMessage({ from: bob, message: bots });
    expect(api.messagesIn(group.id)).toEqual([]);
  });

  it('not in the private chat of someone else', async () => {
    api.sendText({ from: ann, text: 'hi' });
    const sent = await send(ann.id, 'results');
    expect(() => api.deleteMessage({ from: bob, message: sent })).toThrow(/not in the private chat/);
  });
});
