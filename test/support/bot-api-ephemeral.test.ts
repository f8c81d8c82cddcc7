import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Update } from '@grammyjs/types';
import type { Chat, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// Ephemeral messages (Bot API 10.2/10.3, /work/wt/botapi-10.md §4) as the emulator plays them.

let api: BotApi;
let ann: User;
let bob: User;
let group: Chat.SupergroupChat | Chat.GroupChat;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
  bob = api.createUser({ first_name: 'Bob' });
  group = api.createGroup({ title: 'Sales' });
  api.setMemberStatus(group, ann, 'member');
  api.setMemberStatus(group, bob, 'member');
});
afterEach(() => api.close());

const EPHEMERAL_ORDER = [{ command: 'order', description: 'Find an order', is_ephemeral: true }, { command: 'help', description: 'Help' }];

/** Ann sends /order ephemerally (the bot registered it so for the group); the message she sent. */
const ephemeralOrder = async (): Promise<Message> => {
  await ok('setMyCommands', { commands: EPHEMERAL_ORDER, scope: { type: 'chat', chat_id: group.id } });
  return api.sendText({ from: ann, chat: group, text: '/order 7300100' }) as unknown as Message;
};

/** Ann presses a button of a public bot message; the callback query id. */
const pressPublic = async (): Promise<{ queryId: string; message: Message }> => {
  api.sendText({ from: ann, chat: group, text: 'hello' });
  const message = await ok<Message>('sendMessage', { chat_id: group.id, text: 'results', reply_markup: { inline_keyboard: [[{ text: '▶', callback_data: 'p:5:5' }]] } });
  return { queryId: api.pressButton({ from: ann, message: { chat_id: group.id, message_id: message.message_id }, data: 'p:5:5' }), message };
};

describe('commands registered with is_ephemeral', () => {
  it('arrive as ephemeral messages: message_id 0 and an ephemeral_message_id, seen by nobody else', async () => {
    const sent = await ephemeralOrder();
    expect(sent.message_id).toBe(0);
    expect(sent.ephemeral_message_id).toBe(1);
    const updates = await ok<Update[]>('getUpdates');
    expect(updates.map((update) => update.message && { id: update.message.message_id, ephemeral: update.message.ephemeral_message_id })).toEqual([{ id: 0, ephemeral: 1 }]);
    // Not in the group's timeline; another command, or /order in another group, is public.
    expect(api.messagesIn(group.id)).toEqual([]);
    expect(api.sendText({ from: ann, chat: group, text: '/help' }).message_id).toBe(1);
    const other = api.createGroup();
    expect((api.sendText({ from: ann, chat: other, text: '/order 1' }) as unknown as Message).ephemeral_message_id).toBeUndefined();
  });

  it('keeps is_ephemeral in the menu, and refuses a value that is not a boolean', async () => {
    await ephemeralOrder();
    expect(api.commands({ scope: { type: 'chat', chat_id: group.id } })).toEqual(EPHEMERAL_ORDER.map((c) => (c.is_ephemeral ? c : { command: c.command, description: c.description })));
    await fails('setMyCommands', { commands: [{ command: 'order', description: 'x', is_ephemeral: 'yes' }] }, 400, 'Bad Request: can\'t parse BotCommand: Field "is_ephemeral" must be of type Boolean');
  });
});

describe('sending an ephemeral message', () => {
  it('replies to an ephemeral command within 15 seconds, for its sender alone, with message_id 0', async () => {
    const command = await ephemeralOrder();
    const params = { chat_id: group.id, text: 'Looking…', ephemeral_message_parameters: { receiver_user_id: ann.id }, reply_parameters: { ephemeral_message_id: command.ephemeral_message_id } };
    api.advanceTime(14);
    const sent = await ok<Message>('sendMessage', params);
    expect(sent).toMatchObject({ message_id: 0, ephemeral_message_id: 2, receiver_user: { id: ann.id }, text: 'Looking…' });
    expect(api.ephemeralMessages(group.id, ann.id).map((m) => m.text)).toEqual(['Looking…']);
    // A user sees only their own.
    expect(api.ephemeralMessages(group.id, bob.id)).toEqual([]);
    expect(api.messagesIn(group.id)).toEqual([]);
    expect(() => api.pressButton({ from: bob, message: { chat_id: group.id, message_id: 0, ephemeral_message_id: 2 }, data: 'x' })).toThrow(/someone else's/);
    api.advanceTime(2);
    await fails('sendMessage', params, 400, 'Bad Request: an ephemeral message may only be replied to within 15 seconds');
  });

  it('answers a press within 15 seconds, in place of the pressed public message on request', async () => {
    const { queryId, message } = await pressPublic();
    const params = { chat_id: group.id, text: 'your page 2', ephemeral_message_parameters: { receiver_user_id: ann.id, callback_query_id: queryId, replace_callback_query_message: true } };
    const sent = await ok<Message>('sendMessage', params);
    expect(api.ephemeralMessage(group.id, ann.id, sent.ephemeral_message_id!)).toMatchObject({ text: 'your page 2', replaces_message_id: message.message_id });
    expect(api.message(group.id, message.message_id)?.text).toBe('results');
    api.advanceTime(16);
    await fails('sendMessage', params, 400, 'Bad Request: callback query is too old to answer with an ephemeral message');
  });

  it('must not replace a message for a press on an ephemeral message: that one is edited', async () => {
    const { queryId } = await pressPublic();
    const own = await ok<Message>('sendMessage', { chat_id: group.id, text: 'mine', reply_markup: { inline_keyboard: [[{ text: '▶', callback_data: 'p' }]] }, ephemeral_message_parameters: { receiver_user_id: ann.id, callback_query_id: queryId } });
    const press = api.pressButton({ from: ann, message: { chat_id: group.id, message_id: 0, ephemeral_message_id: own.ephemeral_message_id }, data: 'p' });
    const updates = await ok<Update[]>('getUpdates');
    expect(updates.at(-1)?.callback_query?.message).toMatchObject({ message_id: 0, ephemeral_message_id: own.ephemeral_message_id });
    await fails(
      'sendMessage',
      { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: ann.id, callback_query_id: press, replace_callback_query_message: true } },
      400,
      'Bad Request: replace_callback_query_message must be False for callback queries from ephemeral messages',
    );
  });

  it('goes only to groups and supergroups, only to a member, and only after an eligible action', async () => {
    api.sendText({ from: ann, text: 'hi' });
    await fails('sendMessage', { chat_id: ann.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: ann.id } }, 400, 'Bad Request: ephemeral messages can be sent only to groups and supergroups');
    const { queryId } = await pressPublic();
    const carol = api.createUser();
    await fails('sendMessage', { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: carol.id } }, 400, 'Bad Request: the receiver of an ephemeral message must be a member of the chat');
    api.setMemberStatus(group, bob, 'left');
    await fails('sendMessage', { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: bob.id } }, 400, 'Bad Request: the receiver of an ephemeral message must be a member of the chat');
    // Ann's press does not make a message to Bob eligible, nor may a message to Ann go without one…
    api.setMemberStatus(group, bob, 'member');
    await fails('sendMessage', { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: bob.id, callback_query_id: queryId } }, 400, 'Bad Request: callback query not found');
    await fails('sendMessage', { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: ann.id } }, 400, /needs a callback_query_id or a reply/);
    // …unless the bot is an administrator there.
    api.setMemberStatus(group, api.botUser.id, 'administrator');
    expect(await ok<Message>('sendMessage', { chat_id: group.id, text: 'x', ephemeral_message_parameters: { receiver_user_id: ann.id } })).toMatchObject({ message_id: 0 });
  });

  it('refuses a public reply to an ephemeral message', async () => {
    const command = await ephemeralOrder();
    await fails('sendMessage', { chat_id: group.id, text: 'x', reply_parameters: { ephemeral_message_id: command.ephemeral_message_id } }, 400, 'Bad Request: a reply to an ephemeral message must be an ephemeral message');
  });
});

describe('editing and deleting by (chat, receiver, ephemeral id)', () => {
  const sendOne = async () => {
    const command = await ephemeralOrder();
    return ok<Message>('sendMessage', { chat_id: group.id, text: 'Looking…', ephemeral_message_parameters: { receiver_user_id: ann.id }, reply_parameters: { ephemeral_message_id: command.ephemeral_message_id } });
  };

  it('edits the text and keyboard at any time after, and deletes it', async () => {
    const sent = await sendOne();
    const triple = { chat_id: group.id, receiver_user_id: ann.id, ephemeral_message_id: sent.ephemeral_message_id };
    api.advanceTime(60);
    expect(await ok('editEphemeralMessageText', { ...triple, text: '<b>Order</b>', parse_mode: 'HTML', reply_markup: { inline_keyboard: [[{ text: '▶', callback_data: 'p' }]] } })).toBe(true);
    expect(api.ephemeralMessage(group.id, ann.id, sent.ephemeral_message_id!)).toMatchObject({ text: 'Order', edit_count: 1, buttons: [{ text: '▶' }] });
    await fails('editEphemeralMessageText', { ...triple, text: '<b>Order</b>', parse_mode: 'HTML', reply_markup: { inline_keyboard: [[{ text: '▶', callback_data: 'p' }]] } }, 400, /message is not modified/);
    expect(await ok('editEphemeralMessageReplyMarkup', { ...triple })).toBe(true);
    expect(api.ephemeralMessage(group.id, ann.id, sent.ephemeral_message_id!)?.buttons).toEqual([]);
    expect(await ok('deleteEphemeralMessage', triple)).toBe(true);
    expect(api.ephemeralMessages(group.id, ann.id)).toEqual([]);
    await fails('editEphemeralMessageText', { ...triple, text: 'again' }, 400, 'Bad Request: message to edit not found');
    await fails('deleteEphemeralMessage', triple, 400, 'Bad Request: message to delete not found');
  });

  it('finds nothing under another receiver, nor once the message expired', async () => {
    const sent = await sendOne();
    await fails('editEphemeralMessageText', { chat_id: group.id, receiver_user_id: bob.id, ephemeral_message_id: sent.ephemeral_message_id, text: 'x' }, 400, 'Bad Request: message to edit not found');
    // The incoming command shares the numbering, but is the user's: not the bot's to edit.
    await fails('editEphemeralMessageText', { chat_id: group.id, receiver_user_id: ann.id, ephemeral_message_id: 1, text: 'x' }, 400, 'Bad Request: message to edit not found');
    api.expireEphemeral(group.id, ann.id, sent.ephemeral_message_id!);
    await fails('editEphemeralMessageText', { chat_id: group.id, receiver_user_id: ann.id, ephemeral_message_id: sent.ephemeral_message_id, text: 'x' }, 400, 'Bad Request: message to edit not found');
  });
});

describe('an older server', () => {
  const start = async (botApiVersion: '10.1' | '10.2') => {
    await api.close();
    api = await startBotApi({ botApiVersion });
    ann = api.createUser();
    group = api.createGroup();
    api.setMemberStatus(group, ann, 'member');
  };

  it('before 10.2: 404 for the ephemeral methods, is_ephemeral ignored (the command comes publicly) and recorded', async () => {
    await start('10.1');
    for (const method of ['editEphemeralMessageText', 'editEphemeralMessageReplyMarkup', 'deleteEphemeralMessage']) {
      await fails(method, { chat_id: group.id, receiver_user_id: ann.id, ephemeral_message_id: 1, text: 'x' }, 404, 'Not Found');
    }
    await ok('setMyCommands', { commands: EPHEMERAL_ORDER, scope: { type: 'chat', chat_id: group.id } });
    expect(api.sendText({ from: ann, chat: group, text: '/order 1' }).message_id).toBe(1);
    expect(api.ignoredFields()).toMatchObject([{ method: 'setMyCommands', field: 'commands[0].is_ephemeral', since: '10.2' }]);
  });

  it('10.2: ephemeral_message_parameters (10.3) ignored, so the message is posted publicly, and recorded', async () => {
    await start('10.2');
    api.setMemberStatus(group, api.botUser.id, 'administrator');
    const sent = await ok<Message>('sendMessage', { chat_id: group.id, text: 'secret', ephemeral_message_parameters: { receiver_user_id: ann.id } });
    expect(sent.message_id).toBe(1);
    expect(api.messagesIn(group.id).map((m) => m.text)).toEqual(['secret']);
    expect(api.ignoredFields()).toMatchObject([{ method: 'sendMessage', field: 'ephemeral_message_parameters', since: '10.3' }]);
  });

  it('10.2: a disabled button (10.3) beside the parameters makes the send fail loudly, nothing posted', async () => {
    await start('10.2');
    api.setMemberStatus(group, api.botUser.id, 'administrator');
    await fails(
      'sendMessage',
      { chat_id: group.id, text: 'Looking…', ephemeral_message_parameters: { receiver_user_id: ann.id }, reply_markup: { inline_keyboard: [[{ text: '⏳', disabled: {} }]] } },
      400,
      /Text buttons are unallowed/,
    );
    expect(api.messagesIn(group.id)).toEqual([]);
  });
});
