// Guest mode (Bot API 10.0) in the emulator: guest_message updates with the replied-to message,
// answerGuestQuery once per query and within its lifetime, edits by inline_message_id, and an
// older server that has none of it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Update, User } from 'telegraf/types';
import { GUEST_ANSWER_WINDOW_MS, startBotApi } from './bot-api/index.ts';
import type { BotApi, StartBotApiOptions } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

let api: BotApi;
const { call, ok, fails } = caller(() => api);

afterEach(async () => {
  await api.close();
});

const TOO_OLD = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
const article = (text: string) => ({ type: 'article', id: 'card', title: 'Card', input_message_content: { message_text: text, parse_mode: 'HTML' } });
const customerChat = { id: 555_000_001, type: 'private', first_name: 'Customer' } as const;

const start = async (options: StartBotApiOptions = {}) => {
  api = await startBotApi({ guestMode: true, ...options });
  const ann = api.createUser({ first_name: 'Ann' });
  const customer: User = { id: customerChat.id, is_bot: false, first_name: 'Customer' };
  return { ann, customer };
};

const guestUpdates = async () => (await ok<Update[]>('getUpdates')).filter((u) => 'guest_message' in u) as unknown as Array<{ guest_message: Record<string, unknown> }>;

describe('guest mode', () => {
  it('delivers a mention in a chat the bot is not in as a guest_message update, with the replied-to message', async () => {
    const { ann, customer } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot', replyTo: { from: customer, text: 'где мой заказ 7300100?' } });
    expect(id).toMatch(/^\d+$/);
    const [update] = await guestUpdates();
    expect(update?.guest_message).toMatchObject({
      from: ann,
      chat: customerChat,
      text: '@order_lookup_bot',
      entities: [{ type: 'mention', offset: 0, length: 17 }],
      guest_query_id: id,
      reply_to_message: { from: customer, text: 'где мой заказ 7300100?' },
    });
    expect(() => api.sendGuestMessage({ from: ann, chat: customerChat, text: 'no mention' })).toThrow(/must mention @order_lookup_bot/);
  });

  it('sends guest_message only when allowed_updates names it (an explicit list)', async () => {
    const { ann } = await start();
    await ok('getUpdates', { allowed_updates: ['message'] });
    api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' });
    expect(await guestUpdates()).toEqual([]);
    await ok('getUpdates', { allowed_updates: ['message', 'guest_message'] });
    api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' });
    expect(await guestUpdates()).toHaveLength(1);
  });

  it('says supports_guest_queries in getMe, and sends nothing while guest mode is off in BotFather', async () => {
    const { ann } = await start({ guestMode: false });
    expect(await ok<Record<string, unknown>>('getMe')).toMatchObject({ supports_guest_queries: false });
    expect(api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 1' })).toBeUndefined();
    api.setGuestMode(true);
    expect(await ok<Record<string, unknown>>('getMe')).toMatchObject({ supports_guest_queries: true });
    expect(api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 1' })).toMatch(/^\d+$/);
  });

  it('takes one answer per guest query, returning SentGuestMessage, and refuses a second', async () => {
    const { ann } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    const waited = api.waitForGuestAnswer(id);
    const sent = await ok<{ inline_message_id: string }>('answerGuestQuery', { guest_query_id: id, result: article('<b>Order</b> 7300100') });
    expect(Object.keys(sent)).toEqual(['inline_message_id']);
    expect((await waited).inline_message_id).toBe(sent.inline_message_id);
    expect(api.inlineMessage(sent.inline_message_id)).toMatchObject({ chat_id: customerChat.id, text: 'Order 7300100', entities: [{ type: 'bold', offset: 0, length: 5 }], edit_count: 0 });
    await fails('answerGuestQuery', { guest_query_id: id, result: article('again') }, 400, TOO_OLD);
    await fails('answerGuestQuery', { guest_query_id: '42', result: article('unknown') }, 400, TOO_OLD);
  });

  it('takes one result object, not an array, checked as an inline result', async () => {
    const { ann } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    await fails('answerGuestQuery', { guest_query_id: id, result: [article('x')] }, 400, /must be an object/);
    await fails('answerGuestQuery', { guest_query_id: id, result: { ...article('x'), title: '' } }, 400, /title|ARTICLE_TITLE_EMPTY/);
    await fails('answerGuestQuery', { guest_query_id: id }, 400, /result is not specified/);
    expect(api.guestAnswer(id)).toBeUndefined();
  });

  it('refuses an answer past the query lifetime', async () => {
    const { ann } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    api.advanceTime(GUEST_ANSWER_WINDOW_MS / 1000 + 1);
    await fails('answerGuestQuery', { guest_query_id: id, result: article('late') }, 400, TOO_OLD);
  });

  it('edits the sent message by its inline_message_id (text and keyboard), answering true', async () => {
    const { ann } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    const { inline_message_id } = await ok<{ inline_message_id: string }>('answerGuestQuery', { guest_query_id: id, result: article('v1') });
    expect(await ok('editMessageText', { inline_message_id, text: 'v2' })).toBe(true);
    await fails('editMessageText', { inline_message_id, text: 'v2' }, 400, /message is not modified/);
    const keyboard = { inline_keyboard: [[{ text: 'Open', url: 'https://t.me/order_lookup_bot?start=x' }]] };
    expect(await ok('editMessageReplyMarkup', { inline_message_id, reply_markup: keyboard })).toBe(true);
    expect(api.inlineMessage(inline_message_id)).toMatchObject({ text: 'v2', edit_count: 2, reply_markup: keyboard });
    await fails('editMessageText', { inline_message_id: 'nope', text: 'x' }, 400, 'Bad Request: MESSAGE_ID_INVALID');
  });

  it('edits a rich guest message only with rich_message', async () => {
    const { ann } = await start();
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    const result = { type: 'article', id: 'r', title: 'R', input_message_content: { rich_message: { html: '<p>one</p>' } } };
    const { inline_message_id } = await ok<{ inline_message_id: string }>('answerGuestQuery', { guest_query_id: id, result });
    await fails('editMessageText', { inline_message_id, text: 'plain' }, 400, /rich message is edited with rich_message/);
    expect(await ok('editMessageText', { inline_message_id, rich_message: { html: '<p>two</p>' } })).toBe(true);
    expect(api.inlineMessage(inline_message_id)?.text).toContain('two');
  });

  it('on a server older than 10.0: no guest updates, 404 for answerGuestQuery, no supports_guest_queries', async () => {
    const { ann } = await start({ botApiVersion: '9.6' });
    expect(await ok<Record<string, unknown>>('getMe')).not.toHaveProperty('supports_guest_queries');
    expect(api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })).toBeUndefined();
    expect(await guestUpdates()).toEqual([]);
    const { status, body } = await call('answerGuestQuery', { guest_query_id: '1', result: article('x') });
    expect(status).toBe(404);
    expect(body).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
  });

  it('on a 10.0 server: guest answers work, a rich result and new buttons in it are ignored and recorded', async () => {
    const { ann } = await start({ botApiVersion: '10.0' });
    const id = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    const result = { ...article('text'), reply_markup: { inline_keyboard: [[{ text: 'x', url: 'https://t.me/a', style: 'primary' }]] } };
    await ok('answerGuestQuery', { guest_query_id: id, result });
    expect(api.ignoredFields()).toEqual([]);
    const second = api.sendGuestMessage({ from: ann, chat: customerChat, text: '@order_lookup_bot 7300100' })!;
    await call('answerGuestQuery', { guest_query_id: second, result: { ...article('text'), input_message_content: { message_text: 'text', rich_message: { html: '<p>x</p>' } } } });
    expect(api.ignoredFields().map((f) => f.field)).toEqual(['result.input_message_content.rich_message']);
  });
});
