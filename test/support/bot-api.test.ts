import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Telegraf } from 'telegraf';
import type { Message, Update, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { ApiResponse, BotApi } from './bot-api/index.ts';

type Encoding = 'json' | 'form' | 'multipart' | 'query';

let api: BotApi;
let user: User;
let stopBot: (() => Promise<void>) | undefined;

beforeEach(async () => {
  api = await startBotApi();
  user = api.createUser({ first_name: 'Ann' });
});

afterEach(async () => {
  await stopBot?.();
  stopBot = undefined;
  await api.close();
});

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

async function call(
  method: string,
  params: Record<string, unknown> = {},
  options: { as?: Encoding; token?: string } = {},
): Promise<{ status: number; body: ApiResponse }> {
  let url = `${api.apiRoot}/bot${options.token ?? api.token}/${method}`;
  const init: RequestInit = { method: 'POST' };
  const entries = Object.entries(params).map(([key, value]) => [key, asText(value)] as [string, string]);
  switch (options.as ?? 'json') {
    case 'json':
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(params);
      break;
    case 'form':
      init.body = new URLSearchParams(entries);
      break;
    case 'multipart': {
      const form = new FormData();
      for (const [key, value] of entries) form.append(key, value);
      init.body = form;
      break;
    }
    case 'query':
      url += `?${new URLSearchParams(entries).toString()}`;
      break;
  }
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as ApiResponse };
}

async function ok<T = Message.TextMessage>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const { status, body } = await call(method, params);
  if (!body.ok) throw new Error(`${method} failed: ${status} ${body.description}`);
  return body.result as T;
}

async function expectError(request: Promise<{ status: number; body: ApiResponse }>, code: number, description: string) {
  const { status, body } = await request;
  expect(body).toMatchObject({ ok: false, error_code: code, description });
  expect(status).toBe(code);
}

/** Registers the user's private chat (a user must have written before the bot can write). */
function openChat(from: User = user): number {
  api.sendText({ from, text: 'hi' });
  return from.id;
}

const send = (text: string, extra: Record<string, unknown> = {}) => call('sendMessage', { chat_id: user.id, text, ...extra });

describe('transport', () => {
  it('answers getMe with the bot user and uses Telegram envelopes and statuses', async () => {
    const { status, body } = await call('getMe');
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, result: api.botUser });
    expect(api.botUser).toMatchObject({ is_bot: true, username: 'order_lookup_bot', id: 7000000001 });
    await expectError(call('getMe', {}, { token: '123:wrong' }), 401, 'Unauthorized');
    await expectError(call('sendPhoto'), 404, 'Not Found');
    expect((await call('GETME')).body.ok).toBe(true);
    const notBot = await fetch(`${api.apiRoot}/nothing`);
    expect(notBot.status).toBe(404);
  });

  it.each<Encoding>(['json', 'form', 'multipart', 'query'])('reads %s parameters, JSON-valued fields included', async (as) => {
    openChat();
    const markup = { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] };
    const { body } = await call('sendMessage', { chat_id: user.id, text: '<b>x</b>', parse_mode: 'HTML', reply_markup: markup }, { as });
    expect(body).toMatchObject({ ok: true, result: { text: 'x', reply_markup: markup, entities: [{ type: 'bold', offset: 0, length: 1 }] } });
    expect(api.calls.at(-1)?.params.reply_markup).toEqual(markup);
  });

  it('records every call with its response, chat and time', async () => {
    openChat();
    await send('one');
    const [recorded] = api.callsTo('sendMessage', { chatId: user.id });
    expect(recorded).toMatchObject({ method: 'sendMessage', chatId: user.id, injected: false, response: { ok: true } });
    expect(recorded?.at_ms).toBeGreaterThan(0);
  });
});

describe('sendMessage strictness', () => {
  it('requires a known chat', async () => {
    await expectError(call('sendMessage', { text: 'x' }), 400, 'Bad Request: chat_id is empty');
    await expectError(call('sendMessage', { chat_id: 42, text: 'x' }), 400, 'Bad Request: chat not found');
  });

  it('refuses to write first to a user who never opened a private chat with the bot', async () => {
    api.sendText({ from: user, chat: api.createGroup(), text: 'only in the group' });
    const initiate = "Forbidden: bot can't initiate conversation with a user";
    await expectError(call('sendMessage', { chat_id: user.id, text: 'x' }), 403, initiate);
    await expectError(call('sendMessage', { chat_id: api.createUser().id, text: 'x' }), 403, initiate);
  });

  it('requires non-empty text, counted after parsing and trimming', async () => {
    openChat();
    await expectError(call('sendMessage', { chat_id: user.id }), 400, 'Bad Request: message text is empty');
    await expectError(send(''), 400, 'Bad Request: message text is empty');
    await expectError(send(' \n '), 400, 'Bad Request: message text is empty');
    await expectError(send('<b> </b>', { parse_mode: 'HTML' }), 400, 'Bad Request: message text is empty');
    expect((await ok('sendMessage', { chat_id: user.id, text: '  padded \n' })).text).toBe('padded');
  });

  it('limits text to 4096 UTF-16 code units after entity parsing', async () => {
    openChat();
    expect((await send('a'.repeat(4096))).body.ok).toBe(true);
    await expectError(send('a'.repeat(4097)), 400, 'Bad Request: message is too long');
    expect((await send('😀'.repeat(2048))).body.ok).toBe(true);
    await expectError(send('😀'.repeat(2049)), 400, 'Bad Request: message is too long');
    expect((await send(`<b>${'a'.repeat(4096)}</b>`, { parse_mode: 'HTML' })).body.ok).toBe(true);
    expect((await send('&lt;'.repeat(4096), { parse_mode: 'HTML' })).body.ok).toBe(true);
    await expectError(send('&amp;'.repeat(4097), { parse_mode: 'HTML' }), 400, 'Bad Request: message is too long');
  });

  it('rejects an unknown parse_mode', async () => {
    openChat();
    await expectError(send('x', { parse_mode: 'html5' }), 400, 'Bad Request: unsupported parse_mode');
    expect((await send('<i>x</i>', { parse_mode: 'html' })).body.ok).toBe(true);
  });
});

describe('HTML parse mode', () => {
  it('turns supported tags into entities and stores the plain text', async () => {
    openChat();
    const html =
      '<b>B</b> <strong>S</strong> <i>I</i> <em>E</em> <u>U</u> <ins>N</ins> <s>S</s> <strike>K</strike> <del>D</del> ' +
      '<span class="tg-spoiler">P</span> <tg-spoiler>Q</tg-spoiler> <a href="https://example.com/x?a=1&amp;b=2">L</a> ' +
      '<code>c</code> <pre><code class="language-ts">let x;</code></pre> <blockquote expandable>q</blockquote> ' +
      '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji> &lt;&gt;&amp;&quot;&#65;&#x42;';
    const sent = await ok('sendMessage', { chat_id: user.id, text: html, parse_mode: 'HTML' });
    expect(sent.text).toBe('B S I E U N S K D P Q L c let x; q 👍 <>&"AB');
    const types = sent.entities?.map((e) => e.type);
    expect(types).toEqual([
      'bold', 'bold', 'italic', 'italic', 'underline', 'underline', 'strikethrough', 'strikethrough', 'strikethrough',
      'spoiler', 'spoiler', 'text_link', 'code', 'pre', 'expandable_blockquote', 'custom_emoji',
    ]);
    expect(sent.entities).toContainEqual({ type: 'pre', offset: 26, length: 6, language: 'ts' });
    expect(sent.entities).toContainEqual({ type: 'text_link', offset: 22, length: 1, url: 'https://example.com/x?a=1&b=2' });
    const [stored] = api.messagesIn(user.id);
    expect(stored).toMatchObject({ text: sent.text, html, parse_mode: 'HTML', entities: sent.entities });
  });

  it.each([
    ['a < b', 'Unsupported start tag "" at byte offset 2'],
    ['<foo>x</foo>', 'Unsupported start tag "foo" at byte offset 0'],
    ['Привет <br>', 'Unsupported start tag "br" at byte offset 13'],
    ['<b>bold', 'Can\'t find end tag corresponding to start tag "b"'],
    ['<b><i>x</b></i>', 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
    ['x</b>', 'Unexpected end tag at byte offset 1'],
    ['<b', 'Unclosed start tag at byte offset 0'],
    ['<b>x</b', 'Unclosed end tag at byte offset 4'],
    ['<span>x</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
    ['<a href>x</a>', 'Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0'],
    ['<a href=x?y>x</a>', 'Unexpected end of name token at byte offset 8'],
    ['<tg-emoji emoji-id="abc">x</tg-emoji>', 'Invalid custom emoji identifier specified'],
    ['AT&T', 'Unescaped "&" at byte offset 2: use "&amp;"'],
    ['&#xD83D;', 'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units'],
  ])('rejects %j', async (text, detail) => {
    openChat();
    await expectError(send(text, { parse_mode: 'HTML' }), 400, `Bad Request: can't parse entities: ${detail}`);
  });

  it('can accept a stray "&" the way Telegram itself does', async () => {
    await api.close();
    api = await startBotApi({ strictHtmlAmpersand: false });
    openChat();
    expect((await ok('sendMessage', { chat_id: user.id, text: 'AT&T &copy;', parse_mode: 'HTML' })).text).toBe('AT&T &copy;');
  });

  it('handles MarkdownV2 escapes and reserved characters, and plain text with entities', async () => {
    openChat();
    const md = await ok('sendMessage', { chat_id: user.id, text: '*bold* _it_ `a.b` [x](https://t.me) 1\\.5', parse_mode: 'MarkdownV2' });
    expect(md.text).toBe('bold it a.b x 1.5');
    expect(md.entities?.map((e) => e.type)).toEqual(['bold', 'italic', 'code', 'text_link']);
    await expectError(
      send('Total: 1.5', { parse_mode: 'MarkdownV2' }),
      400,
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    await expectError(send('*open', { parse_mode: 'MarkdownV2' }), 400, "Bad Request: can't parse entities: Can't find end of Bold entity at byte offset 0");
    const plain = await ok('sendMessage', { chat_id: user.id, text: 'a <b> c', entities: [{ type: 'bold', offset: 2, length: 3 }] });
    expect(plain).toMatchObject({ text: 'a <b> c', entities: [{ type: 'bold', offset: 2, length: 3 }] });
  });
});

describe('inline keyboards', () => {
  const keyboard = (...rows: Record<string, unknown>[][]) => ({ reply_markup: { inline_keyboard: rows } });

  it('accepts callback_data up to 64 UTF-8 bytes and rejects more or none', async () => {
    openChat();
    expect((await send('x', keyboard([{ text: 'ok', callback_data: 'é'.repeat(32) }]))).body.ok).toBe(true);
    await expectError(send('x', keyboard([{ text: 'ok', callback_data: 'é'.repeat(33) }])), 400, 'Bad Request: BUTTON_DATA_INVALID');
    await expectError(send('x', keyboard([{ text: 'ok', callback_data: '' }])), 400, 'Bad Request: BUTTON_DATA_INVALID');
  });

  it('requires button text and exactly one action', async () => {
    openChat();
    await expectError(send('x', keyboard([{ text: '', callback_data: 'a' }])), 400, 'Bad Request: BUTTON_TEXT_EMPTY');
    await expectError(
      send('x', keyboard([{ text: 'no action' }])),
      400,
      "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
    );
    const { body } = await send('x', keyboard([{ text: 'two', callback_data: 'a', url: 'https://example.com' }]));
    expect(body).toMatchObject({ ok: false, error_code: 400 });
    await expectError(send('x', keyboard([{ text: 'u', url: 'not a url' }])), 400, 'Bad Request: BUTTON_URL_INVALID');
    await expectError(send('x', { reply_markup: { inline_keyboard: {} } }), 400, 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array');
  });

  it('allows at most 8 buttons a row and 100 in all', async () => {
    openChat();
    const button = (i: number) => ({ text: `b${i}`, callback_data: `d${i}` });
    const row = (size: number, base = 0) => Array.from({ length: size }, (_, i) => button(base + i));
    expect((await send('x', keyboard(row(8)))).body.ok).toBe(true);
    await expectError(send('x', keyboard(row(9))), 400, 'Bad Request: REPLY_MARKUP_TOO_LONG');
    const rows = (count: number) => Array.from({ length: count }, (_, r) => row(5, r * 5));
    expect((await send('x', keyboard(...rows(20)))).body.ok).toBe(true);
    await expectError(send('x', keyboard(...rows(20), [button(999)])), 400, 'Bad Request: REPLY_MARKUP_TOO_LONG');
  });
});

describe('replies and topics', () => {
  it('needs the replied message to exist unless allow_sending_without_reply', async () => {
    const asked = api.sendText({ from: user, text: 'question' });
    const reply = await ok('sendMessage', { chat_id: user.id, text: 'answer', reply_parameters: { message_id: asked.message_id } });
    expect(reply.reply_to_message?.message_id).toBe(asked.message_id);
    expect(api.message(user.id, reply.message_id)?.reply_to_message_id).toBe(asked.message_id);
    await expectError(send('x', { reply_parameters: { message_id: 999 } }), 400, 'Bad Request: message to be replied not found');
    await expectError(send('x', { reply_to_message_id: 999 }), 400, 'Bad Request: message to be replied not found');
    const loose = await ok('sendMessage', { chat_id: user.id, text: 'x', reply_parameters: { message_id: 999, allow_sending_without_reply: true } });
    expect(loose.reply_to_message).toBeUndefined();
  });

  it('records forum topics and rejects unknown ones', async () => {
    const forum = api.createGroup({ title: 'Sales', forum: true });
    const incoming = api.sendText({ from: user, chat: forum, text: '/find 42', threadId: 7 });
    expect(incoming).toMatchObject({ message_thread_id: 7, is_topic_message: true, chat: { id: forum.id, type: 'supergroup' } });
    expect(forum.id).toBeLessThan(0);
    const sent = await ok('sendMessage', { chat_id: forum.id, text: 'found', message_thread_id: 7 });
    expect(sent).toMatchObject({ message_thread_id: 7, is_topic_message: true });
    expect(api.messagesIn(forum.id)[0]?.message_thread_id).toBe(7);
    await expectError(call('sendMessage', { chat_id: forum.id, text: 'x', message_thread_id: 99 }), 400, 'Bad Request: message thread not found');
  });

  it('gives user messages bot_command entities and per-chat increasing ids', () => {
    const group = api.createGroup({ type: 'group' });
    const first = api.sendText({ from: user, chat: group, text: '/find@order_lookup_bot 42 /help' });
    expect(first.entities).toEqual([
      { type: 'bot_command', offset: 0, length: 22 },
      { type: 'bot_command', offset: 26, length: 5 },
    ]);
    expect(api.sendText({ from: user, chat: group, text: 'plain' })).toMatchObject({ message_id: first.message_id + 1 });
    expect(api.sendText({ from: user, text: 'private' }).message_id).toBe(1);
  });
});

describe('editing and deleting', () => {
  const markup = { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] };

  it('edits only existing bot messages, and only when something changes', async () => {
    const incoming = api.sendText({ from: user, text: 'hi' });
    const sent = await ok('sendMessage', { chat_id: user.id, text: '<b>Hello</b>', parse_mode: 'HTML', reply_markup: markup });
    const edit = (params: Record<string, unknown>) => call('editMessageText', { chat_id: user.id, message_id: sent.message_id, ...params });
    await expectError(call('editMessageText', { chat_id: user.id, message_id: 999, text: 'x' }), 400, 'Bad Request: message to edit not found');
    await expectError(call('editMessageText', { chat_id: user.id, message_id: incoming.message_id, text: 'x' }), 400, "Bad Request: message can't be edited");
    const notModified =
      'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
    await expectError(edit({ text: '<strong>Hello</strong>', parse_mode: 'HTML', reply_markup: markup }), 400, notModified);
    // same text without entities is a change
    expect((await edit({ text: 'Hello', reply_markup: markup })).body.ok).toBe(true);
    // an edit without reply_markup removes the keyboard, like Telegram
    const { body } = await edit({ text: 'Hello' });
    expect(body).toMatchObject({ ok: true, result: { text: 'Hello' } });
    expect(api.message(user.id, sent.message_id)).toMatchObject({ edit_count: 2, reply_markup: undefined, buttons: [] });
    const markupOnly = (reply_markup?: unknown) =>
      call('editMessageReplyMarkup', { chat_id: user.id, message_id: sent.message_id, reply_markup });
    await expectError(markupOnly(), 400, notModified);
    expect((await markupOnly(markup)).body.ok).toBe(true);
    await expectError(markupOnly(markup), 400, notModified);
  });

  it('deletes a message once', async () => {
    openChat();
    const sent = await ok('sendMessage', { chat_id: user.id, text: 'bye' });
    expect((await call('deleteMessage', { chat_id: user.id, message_id: sent.message_id })).body).toEqual({ ok: true, result: true });
    await expectError(call('deleteMessage', { chat_id: user.id, message_id: sent.message_id }), 400, 'Bad Request: message to delete not found');
    await expectError(call('editMessageText', { chat_id: user.id, message_id: sent.message_id, text: 'x' }), 400, 'Bad Request: message to edit not found');
    expect(api.messagesIn(user.id)).toEqual([]);
    expect(api.messagesIn(user.id, { includeDeleted: true })[0]?.deleted).toBe(true);
  });
});

describe('callback queries', () => {
  const markup = { inline_keyboard: [[{ text: 'Open', callback_data: 'order:1' }]] };

  it('only lets users press buttons the message shows, unless forged', async () => {
    openChat();
    const sent = await ok('sendMessage', { chat_id: user.id, text: 'Orders', reply_markup: markup });
    expect(() => api.pressButton({ from: user, message: sent, data: 'order:2' })).toThrow(/no button with callback_data "order:2".*\["order:1"\]/);
    const forged = api.pressButton({ from: user, message: sent, data: 'order:2', forged: true });
    const pressed = api.pressButton({ from: user, message: sent, data: 'order:1' });
    expect(forged).not.toBe(pressed);
    const { body } = await call('getUpdates');
    const updates = (body as { result: Update.CallbackQueryUpdate[] }).result.slice(-2);
    expect(updates.map((u) => u.callback_query)).toMatchObject([
      { id: forged, data: 'order:2', from: { id: user.id }, message: { message_id: sent.message_id, reply_markup: markup } },
      { id: pressed, data: 'order:1' },
    ]);
  });

  it('accepts one answer within 15 s of emulated time, with text up to 200 characters', async () => {
    openChat();
    const sent = await ok('sendMessage', { chat_id: user.id, text: 'Orders', reply_markup: markup });
    const press = () => api.pressButton({ from: user, message: sent, data: 'order:1' });
    const tooOld = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
    const first = press();
    await expectError(call('answerCallbackQuery', { callback_query_id: first, text: 'x'.repeat(201) }), 400, 'Bad Request: MESSAGE_TOO_LONG');
    expect((await call('answerCallbackQuery', { callback_query_id: first, text: 'Done', show_alert: true })).body.ok).toBe(true);
    expect(api.callbackAnswer(first)).toMatchObject({ text: 'Done', show_alert: true });
    await expectError(call('answerCallbackQuery', { callback_query_id: first }), 400, tooOld);
    await expectError(call('answerCallbackQuery', { callback_query_id: '123' }), 400, tooOld);
    const late = press();
    api.advanceTime(16);
    await expectError(call('answerCallbackQuery', { callback_query_id: late }), 400, tooOld);
    expect(api.callbackAnswer(late)).toBeUndefined();
  });
});

describe('getUpdates', () => {
  const updateIds = (body: ApiResponse) => (body.ok ? (body.result as Update[]).map((u) => u.update_id) : body.description);

  it('hands out updates in order, honours limit, and forgets them once offset confirms them', async () => {
    const texts = ['a', 'b', 'c'].map((text) => api.sendText({ from: user, text }));
    const first = await call('getUpdates', { limit: 2 });
    const ids = updateIds(first.body) as number[];
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe((ids[0] ?? 0) + 1);
    expect(api.updatesConsumed()).toBe(false);
    const rest = await call('getUpdates', { offset: (ids[1] ?? 0) + 1 });
    expect(rest.body).toMatchObject({ ok: true, result: [{ message: { text: texts[2]?.text } }] });
    expect(api.updatesConsumed()).toBe(true);
    expect(updateIds((await call('getUpdates', { offset: (ids[1] ?? 0) + 2 })).body)).toEqual([]);
  });

  it('long-polls: answers as soon as an update is queued, or empty after the timeout', async () => {
    const started = Date.now();
    const polling = call('getUpdates', { timeout: 10 });
    await api.waitForPolling();
    api.sendText({ from: user, text: 'wake up' });
    const { body } = await polling;
    expect(body).toMatchObject({ ok: true, result: [{ message: { text: 'wake up' } }] });
    expect(Date.now() - started).toBeLessThan(2000);
    const lastId = (body.ok ? (body.result as Update[]) : [])[0]?.update_id ?? 0;
    const emptyStart = Date.now();
    expect((await call('getUpdates', { offset: lastId + 1, timeout: 1 })).body).toEqual({ ok: true, result: [] });
    expect(Date.now() - emptyStart).toBeGreaterThanOrEqual(950);
    expect(api.updatesConsumed()).toBe(true);
  });

  it('terminates a waiting long poll when another getUpdates arrives', async () => {
    const first = call('getUpdates', { timeout: 10 });
    await api.waitForPolling();
    const second = call('getUpdates', { timeout: 0 });
    await expectError(first, 409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running');
    expect((await second).body.ok).toBe(true);
  });

  it('drops update types outside allowed_updates and refuses polling while a webhook is set', async () => {
    await call('getUpdates', { allowed_updates: ['callback_query'] });
    api.sendText({ from: user, text: 'ignored' });
    expect(updateIds((await call('getUpdates')).body)).toEqual([]);
    await call('getUpdates', { allowed_updates: [] });
    api.sendText({ from: user, text: 'seen' });
    expect(updateIds((await call('getUpdates')).body)).toHaveLength(1);
    await expectError(call('setWebhook', { url: 'http://insecure.example.com' }), 400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
    // The refused call counted against the one setWebhook a second.
    api.advanceTime(1);
    expect((await call('setWebhook', { url: 'https://bot.example.com/hook' })).body.ok).toBe(true);
    expect(api.webhook?.url).toBe('https://bot.example.com/hook');
    await expectError(call('getUpdates'), 409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");
    expect((await ok<{ url: string }>('getWebhookInfo')).url).toBe('https://bot.example.com/hook');
    expect((await call('deleteWebhook', { drop_pending_updates: true })).body.ok).toBe(true);
    expect(await ok('getUpdates')).toEqual([]);
  });
});

describe('bot commands', () => {
  const command = (name: string, description = 'Does things') => ({ command: name, description });

  it('validates commands and keeps one list per scope and language', async () => {
    await expectError(call('setMyCommands', { commands: [command('Find')] }), 400, 'Bad Request: BOT_COMMAND_INVALID');
    await expectError(call('setMyCommands', { commands: [command('a'.repeat(33))] }), 400, 'Bad Request: BOT_COMMAND_INVALID');
    await expectError(call('setMyCommands', { commands: [command('find', '')] }), 400, 'Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
    await expectError(call('setMyCommands', { commands: [command('find', 'x'.repeat(257))] }), 400, 'Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
    const many = Array.from({ length: 101 }, (_, i) => command(`c${i}`));
    await expectError(call('setMyCommands', { commands: many }), 400, 'Bad Request: BOT_COMMANDS_TOO_MUCH');
    expect((await call('setMyCommands', { commands: many.slice(0, 100) })).body.ok).toBe(true);
    const ru = [command('find', 'Найти заказ')];
    const scope = { type: 'all_private_chats' };
    expect((await call('setMyCommands', { commands: ru, scope, language_code: 'ru' }, { as: 'form' })).body.ok).toBe(true);
    expect(api.commands({ scope, languageCode: 'ru' })).toEqual(ru);
    expect(api.commands()).toHaveLength(100);
    expect(await ok('getMyCommands', { scope, language_code: 'ru' })).toEqual(ru);
    expect(await ok('getMyCommands', { scope })).toEqual([]);
    expect((await call('deleteMyCommands', { scope, language_code: 'ru' })).body.ok).toBe(true);
    expect(api.commands({ scope, languageCode: 'ru' })).toBeUndefined();
  });
});

describe('chats, actions, inline answers', () => {
  it('validates chat actions and answers getChat', async () => {
    openChat();
    await expectError(call('sendChatAction', { chat_id: user.id, action: 'dancing' }), 400, 'Bad Request: wrong parameter action in request');
    expect((await call('sendChatAction', { chat_id: user.id, action: 'typing' })).body.ok).toBe(true);
    expect(api.chatActions(user.id)).toMatchObject([{ action: 'typing' }]);
    expect(await ok('getChat', { chat_id: user.id })).toMatchObject({ id: user.id, type: 'private', first_name: 'Ann' });
    await expectError(call('getChat', { chat_id: -1 }), 400, 'Bad Request: chat not found');
  });

  it('records leaveChat and then refuses to write to that group', async () => {
    const group = api.createGroup();
    api.sendText({ from: user, chat: group, text: 'hello bot' });
    expect((await call('leaveChat', { chat_id: group.id })).body.ok).toBe(true);
    await expectError(call('sendMessage', { chat_id: group.id, text: 'x' }), 403, 'Forbidden: bot is not a member of the supergroup chat');
  });

  it('validates inline query answers (more in bot-api-inline.test.ts)', async () => {
    const result = (id: string) => ({ type: 'article', id, title: id, input_message_content: { message_text: id } });
    const fifty = Array.from({ length: 50 }, (_, i) => result(`r${i}`));
    const query = () => api.sendInlineQuery({ from: user, query: 'q' });
    const q1 = query();
    expect((await call('answerInlineQuery', { inline_query_id: q1, results: fifty })).body.ok).toBe(true);
    expect(api.inlineAnswers[0]?.results).toHaveLength(50);
    expect(api.inlineAnswer(q1)?.results).toHaveLength(50);
    const tooMany = 'Bad Request: too many inline query results specified';
    await expectError(call('answerInlineQuery', { inline_query_id: query(), results: [...fifty, result('r50')] }), 400, tooMany);
    await expectError(call('answerInlineQuery', { inline_query_id: query(), results: [result('a'), result('a')] }), 400, 'Bad Request: RESULT_ID_DUPLICATE');
    const tooOld = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
    await expectError(call('answerInlineQuery', { inline_query_id: 'q1', results: [] }), 400, tooOld);
  });
});

describe('injected failures', () => {
  it('fails the next call with the given error, flood control included', async () => {
    openChat();
    api.failNext('sendMessage', { error_code: 429, retry_after: 3 });
    const { status, body } = await send('x');
    expect(status).toBe(429);
    expect(body).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } });
    expect((await send('x')).body.ok).toBe(true);
    api.failNext('sendMessage', { error_code: 403, description: 'Forbidden: bot was blocked by the user' }, { chatId: 1, times: 2 });
    expect((await send('not chat 1')).body.ok).toBe(true);
    expect(api.callsTo('sendMessage').filter((c) => c.injected)).toHaveLength(1);
    expect(api.failedCalls()).toEqual([]);
  });

  it('answers 403 once the user blocked the bot', async () => {
    openChat();
    api.blockBot(user.id);
    await expectError(send('x'), 403, 'Forbidden: bot was blocked by the user');
    api.blockBot(user.id, false);
    expect((await send('x')).body.ok).toBe(true);
  });
});

describe('waiting helpers', () => {
  it('times out with the recent calls in the message', async () => {
    await api.close();
    api = await startBotApi({ waitTimeoutMs: 200 });
    openChat();
    await send('<b>oops', { parse_mode: 'HTML' });
    await expect(api.nextBotMessage(user.id)).rejects.toThrow(
      /timed out after 200 ms waiting for a bot message in chat \d+ after message 0\nRecent calls:\n.*sendMessage .*→ 400 Bad Request: can't parse entities/,
    );
    expect(api.failedCalls()).toHaveLength(1);
  });

  it('follows messages and edits with per-chat cursors', async () => {
    openChat();
    const first = await ok('sendMessage', { chat_id: user.id, text: 'one' });
    await ok('sendMessage', { chat_id: user.id, text: 'two' });
    expect((await api.nextBotMessage(user.id)).text).toBe('one');
    expect((await api.nextBotMessage(user.id)).text).toBe('two');
    const edited = api.waitForEdit(user.id, first.message_id);
    await ok('editMessageText', { chat_id: user.id, message_id: first.message_id, text: 'uno' });
    expect(await edited).toMatchObject({ text: 'uno', edit_count: 1 });
    expect((await api.waitForCall('editMessageText', { chatId: user.id })).response.ok).toBe(true);
    expect(await api.waitFor(() => api.messagesIn(user.id).length === 2)).toBe(true);
  });

  it('re-checks probes over state outside the emulator too', async () => {
    let external: string | undefined;
    setTimeout(() => {
      external = 'written by the bot elsewhere';
    }, 30);
    expect(await api.waitFor(() => external, { description: 'the external write' })).toBe('written by the bot elsewhere');
  });
});

describe('Telegraf against the emulator', () => {
  function launch(bot: Telegraf): void {
    const running = bot.launch();
    stopBot = async () => {
      bot.stop('test over');
      await running;
    };
  }

  it('runs a bot with long polling: command reply, button press, edit and answer', async () => {
    const bot = new Telegraf(api.token, { telegram: { apiRoot: api.apiRoot } });
    bot.command('ping', (ctx) => ctx.reply('pong'));
    bot.command('menu', (ctx) =>
      ctx.reply('<b>Pick</b> one', { parse_mode: 'HTML', reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'pick:a' }]] } }),
    );
    bot.action(/^pick:(.+)$/, async (ctx) => {
      await ctx.editMessageText(`Picked <i>${ctx.match[1]}</i>`, { parse_mode: 'HTML' });
      await ctx.answerCbQuery('Saved');
    });
    launch(bot);
    await api.waitForPolling();

    api.sendText({ from: user, text: '/ping' });
    expect(await api.nextBotMessage(user.id)).toMatchObject({ text: 'pong' });

    api.sendText({ from: user, text: '/menu' });
    const menu = await api.nextBotMessage(user.id);
    expect(menu).toMatchObject({ text: 'Pick one', buttons: [{ text: 'A', callback_data: 'pick:a' }] });

    const query = api.pressButton({ from: user, message: menu, data: 'pick:a' });
    expect(await api.waitForEdit(user.id, menu.message_id)).toMatchObject({ text: 'Picked a', reply_markup: undefined, edit_count: 1 });
    expect(await api.waitForAnswer(query)).toMatchObject({ text: 'Saved', show_alert: false });

    await api.waitForIdle();
    expect(api.updatesConsumed()).toBe(true);
    expect(api.failedCalls()).toEqual([]);
    expect(api.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['getMe', 'deleteWebhook', 'getUpdates']));
  });

  it('replies inside the forum topic the command came from', async () => {
    const bot = new Telegraf(api.token, { telegram: { apiRoot: api.apiRoot } });
    bot.command('ping', (ctx) => ctx.reply('pong'));
    launch(bot);
    const forum = api.createGroup({ forum: true });
    api.sendText({ from: user, chat: forum, text: '/ping@order_lookup_bot', threadId: 12 });
    expect(await api.nextBotMessage(forum.id)).toMatchObject({ text: 'pong', message_thread_id: 12 });
  });

  it('leaves no server, socket or timer behind after stop and close', async () => {
    const ours = (types: string[]) => types.filter((t) => /^(TCPServerWrap|TCPSocketWrap|Timeout)$/.test(t)).length;
    const before = ours(process.getActiveResourcesInfo());
    const local = await startBotApi();
    const bot = new Telegraf(local.token, { telegram: { apiRoot: local.apiRoot } });
    bot.command('ping', (ctx) => ctx.reply('pong'));
    const running = bot.launch();
    local.sendText({ from: user, text: '/ping' });
    await local.nextBotMessage(user.id);
    bot.stop('done');
    await running;
    await local.close();
    // Node releases closed handles a moment later; 2 s bounds the wait
    for (let i = 0; i < 200 && ours(process.getActiveResourcesInfo()) > before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(ours(process.getActiveResourcesInfo())).toBeLessThanOrEqual(before);
  });
});
