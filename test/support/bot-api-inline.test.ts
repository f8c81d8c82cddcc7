import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Telegraf } from 'telegraf';
import type { Update, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

let api: BotApi;
let user: User;
let stopBot: (() => Promise<void>) | undefined;
const { call, ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  user = api.createUser({ first_name: 'Ann' });
});

afterEach(async () => {
  await stopBot?.();
  stopBot = undefined;
  await api.close();
});

const TOO_OLD = 'Bad Request: query is too old and response timeout expired or query ID is invalid';
const article = (id: string, text = id, extra: Record<string, unknown> = {}) => ({
  type: 'article',
  id,
  title: `Title ${id}`,
  input_message_content: { message_text: text },
  ...extra,
});
const answer = (inline_query_id: string, results: unknown[], extra: Record<string, unknown> = {}) =>
  call('answerInlineQuery', { inline_query_id, results, ...extra });
const answerFails = (results: unknown[], description: string | RegExp, extra: Record<string, unknown> = {}) =>
  fails('answerInlineQuery', { inline_query_id: api.sendInlineQuery({ from: user, query: 'q' }), results, ...extra }, 400, description);
const parseError = (detail: string) => `Bad Request: can't parse inline query result: ${detail}`;

describe('inline queries', () => {
  it('queues inline_query updates like Telegram, within what clients can send', async () => {
    const first = api.sendInlineQuery({ from: user, query: 'order 42' });
    const second = api.sendInlineQuery({ from: user, query: 'order 42', offset: '20', chatType: 'supergroup' });
    expect(first).toMatch(/^\d+$/);
    expect(second).not.toBe(first);
    const updates = await ok<Update.InlineQueryUpdate[]>('getUpdates');
    expect(updates.map((u) => u.inline_query)).toEqual([
      { id: first, from: user, query: 'order 42', offset: '' },
      { id: second, from: user, query: 'order 42', offset: '20', chat_type: 'supergroup' },
    ]);
    expect(api.sendInlineQuery({ from: user, query: 'x'.repeat(256) })).toMatch(/^\d+$/);
    expect(() => api.sendInlineQuery({ from: user, query: 'x'.repeat(257) })).toThrow(/at most 256 characters/);
    expect(() => api.sendInlineQuery({ from: user, query: 'x', offset: 'o'.repeat(65) })).toThrow(/at most 64 bytes/);
    expect(() => api.sendInlineQuery({ from: user, query: 'x', chatType: 'forum' as never })).toThrow(/unknown inline query chat type/);
  });

  it('accepts one answer per query within 10 s of emulated time, and records it', async () => {
    const id = api.sendInlineQuery({ from: user, query: 'q' });
    const waited = api.waitForInlineAnswer(id);
    expect(api.inlineAnswer(id)).toBeUndefined();
    expect((await answer(id, [article('1', 'one')])).body).toEqual({ ok: true, result: true });
    const recorded = await waited;
    expect(recorded).toMatchObject({
      inline_query_id: id,
      results: [article('1', 'one')],
      cache_time: 300,
      is_personal: false,
      next_offset: '',
      button: undefined,
    });
    expect(api.inlineAnswer(id)).toEqual(recorded);
    expect(api.inlineAnswers).toEqual([recorded]);
    await fails('answerInlineQuery', { inline_query_id: id, results: [] }, 400, TOO_OLD);
    await fails('answerInlineQuery', { inline_query_id: '123', results: [] }, 400, TOO_OLD);
    await fails('answerInlineQuery', { results: [] }, 400, TOO_OLD);
    const late = api.sendInlineQuery({ from: user, query: 'q' });
    api.advanceTime(11);
    await fails('answerInlineQuery', { inline_query_id: late, results: [] }, 400, TOO_OLD);
    expect(api.inlineAnswer(late)).toBeUndefined();
    expect(api.failedCalls()).toHaveLength(4);
  });

  it('refuses invalid answers without using up the query', async () => {
    const id = api.sendInlineQuery({ from: user, query: 'q' });
    await fails('answerInlineQuery', { inline_query_id: id, results: [article('a'), article('a')] }, 400, 'Bad Request: RESULT_ID_DUPLICATE');
    expect((await answer(id, [article('a')])).body.ok).toBe(true);
  });

  it('takes no results, or up to 50 with unique ids of 1-64 bytes', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => article(`r${i}`));
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), fifty)).body.ok).toBe(true);
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [])).body.ok).toBe(true);
    expect((await call('answerInlineQuery', { inline_query_id: api.sendInlineQuery({ from: user, query: 'q' }) })).body.ok).toBe(true);
    // the Bot API server counts before it asks Telegram (whose own answer would be RESULTS_TOO_MUCH)
    await answerFails([...fifty, article('r50')], 'Bad Request: too many inline query results specified');
    await answerFails([article('a'), article('b'), article('a')], 'Bad Request: RESULT_ID_DUPLICATE');
    await answerFails([article('', 'text')], 'Bad Request: RESULT_ID_INVALID');
    await answerFails([article('é'.repeat(33))], 'Bad Request: RESULT_ID_INVALID');
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [article('é'.repeat(32))])).body.ok).toBe(true);
    // the Bot API server reads a number where it wants a string
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [{ ...article('x'), id: 7 }])).body.ok).toBe(true);
    await answerFails([{ ...article('x'), id: { n: 1 } }], parseError('Field "id" must be of type String'));
    await answerFails(['article'], parseError('Inline query result must be an object'));
    await answerFails([{ id: '1' }], parseError('Can\'t find field "type"'));
    await answerFails([{ ...article('1'), type: 'carousel' }], parseError('type "carousel" is unsupported for the inline query result'));
    await answerFails([{ type: 'photo', id: '1' }], parseError('Can\'t find field "photo_file_id"'));
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [{ type: 'photo', id: '1', photo_file_id: 'AgAC' }])).body.ok).toBe(true);
  });

  it('requires articles to have a title and a message content', async () => {
    const { title: _title, ...untitled } = article('1');
    await answerFails([untitled], parseError('Can\'t find field "title"'));
    await answerFails([article('1', '1', { title: ' ' })], 'Bad Request: ARTICLE_TITLE_EMPTY');
    await answerFails([{ type: 'article', id: '1', title: 'T' }], parseError('Can\'t find field "message_text"'));
    await answerFails([article('1', '1', { input_message_content: {} })], parseError('Input message content is not specified'));
    await answerFails([article('1', '1', { input_message_content: 'text' })], parseError('Field "input_message_content" must be of type Object'));
    // before input_message_content existed, message_text sat on the result itself
    const legacy = { type: 'article', id: '1', title: 'T', message_text: '<b>x</b>', parse_mode: 'HTML' };
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [legacy])).body.ok).toBe(true);
    const contact = article('2', '', { input_message_content: { phone_number: '+10000000000', first_name: 'Ann' } });
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [contact])).body.ok).toBe(true);
  });

  it('checks message texts exactly as sendMessage does', async () => {
    const html = (text: string, extra: Record<string, unknown> = {}) =>
      article('1', '', { input_message_content: { message_text: text, parse_mode: 'HTML', ...extra } });
    await answerFails([html('<foo>x</foo>')], parseError('Can\'t parse entities: Unsupported start tag "foo" at byte offset 0'));
    await answerFails([html('AT&T')], parseError('Can\'t parse entities: Unescaped "&" at byte offset 2: use "&amp;"'));
    await answerFails([html('x', { parse_mode: 'html5' })], parseError('Unsupported parse_mode'));
    await answerFails([html(' \n ')], 'Bad Request: message text is empty');
    await answerFails([html('<b> </b>')], 'Bad Request: message text is empty');
    // 4096 characters after entity parsing; longer texts are refused by Telegram itself
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [html(`<b>${'a'.repeat(4096)}</b>`)])).body.ok).toBe(true);
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), [html('&lt;'.repeat(4096))])).body.ok).toBe(true);
    await answerFails([html('&amp;'.repeat(4097))], 'Bad Request: MESSAGE_TOO_LONG');
    await answerFails([article('1', '😀'.repeat(2049))], 'Bad Request: MESSAGE_TOO_LONG');
    const entities = [{ type: 'bold', offset: 0, length: 1 }, { type: 'shout', offset: 0, length: 1 }];
    await answerFails([article('1', '', { input_message_content: { message_text: 'x', entities } })], parseError(
      'Can\'t parse MessageEntity: Unsupported type "shout"',
    ));
    await answerFails([article('1', '1', { caption: '<i>x', parse_mode: 'HTML' })], parseError(
      'Can\'t parse entities: Can\'t find end tag corresponding to start tag "i"',
    ));
  });

  it('validates reply markup as for messages, inline keyboards only', async () => {
    const withMarkup = (reply_markup: unknown) => [article('1', '1', { reply_markup })];
    const button = (b: Record<string, unknown>) => withMarkup({ inline_keyboard: [[{ text: 'Open', ...b }]] });
    expect((await answer(api.sendInlineQuery({ from: user, query: 'q' }), button({ callback_data: 'o:1' }))).body.ok).toBe(true);
    await answerFails(button({ callback_data: 'x'.repeat(65) }), 'Bad Request: BUTTON_DATA_INVALID');
    await answerFails(button({}), parseError("Can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"));
    await answerFails(withMarkup({ keyboard: [['a']] }), 'Bad Request: inline keyboard expected');
    await answerFails(withMarkup({ inline_keyboard: [[...Array.from({ length: 9 }, (_, i) => ({ text: `${i}`, callback_data: `${i}` }))]] }), 'Bad Request: REPLY_MARKUP_TOO_LONG');
  });

  it('checks next_offset, cache_time, is_personal and the results button', async () => {
    const id = () => api.sendInlineQuery({ from: user, query: 'q' });
    const results = [article('1')];
    await answerFails(results, 'Bad Request: NEXT_OFFSET_INVALID', { next_offset: 'o'.repeat(65) });
    await answerFails(results, /^Bad Request: cache_time must be a non-negative Integer/, { cache_time: -1 });
    await answerFails(results, /^Bad Request: cache_time must be a non-negative Integer/, { cache_time: 'soon' });
    await answerFails(results, /^Bad Request: is_personal must be a Boolean/, { is_personal: 'yes' });
    const full = id();
    const extra = { next_offset: 'o'.repeat(64), cache_time: 100_000, is_personal: true, button: { text: 'Sign in', start_parameter: 'login-1_a' } };
    expect((await answer(full, results, extra)).body.ok).toBe(true);
    expect(api.inlineAnswer(full)).toMatchObject({ next_offset: 'o'.repeat(64), cache_time: 86_400, is_personal: true, button: extra.button });

    const buttonError = (detail: string) => `Bad Request: can't parse inline query results button: ${detail}`;
    await answerFails(results, buttonError('Can\'t find field "text"'), { button: { start_parameter: 'x' } });
    await answerFails(results, buttonError('InlineQueryResultsButton must have exactly one optional field'), { button: { text: 'x' } });
    await answerFails(results, buttonError('InlineQueryResultsButton must be an Object'), { button: ['x'] });
    await answerFails(results, "Bad Request: can't use empty start_parameter", { button: { text: 'x', start_parameter: '' } });
    await answerFails(results, 'Bad Request: too long start_parameter specified', { button: { text: 'x', start_parameter: 'p'.repeat(65) } });
    await answerFails(results, 'Bad Request: unallowed characters in start_parameter are used', { button: { text: 'x', start_parameter: 'a b' } });
    await answerFails(results, "Bad Request: inline query button Web App URL 'http://app.example.com' is invalid: Only HTTPS links are allowed", {
      button: { text: 'x', web_app: { url: 'http://app.example.com' } },
    });
    const webApp = id();
    expect((await answer(webApp, results, { button: { text: 'App', web_app: { url: 'https://app.example.com' } } })).body.ok).toBe(true);
    // the parameters the button replaced still work
    const legacy = id();
    expect((await answer(legacy, results, { switch_pm_text: 'Sign in', switch_pm_parameter: 'login' })).body.ok).toBe(true);
    expect(api.inlineAnswer(legacy)?.button).toEqual({ text: 'Sign in', start_parameter: 'login' });
  });

  it('reads results and button sent as form fields (JSON text)', async () => {
    const id = api.sendInlineQuery({ from: user, query: 'q' });
    const { body } = await call('answerInlineQuery', { inline_query_id: id, results: [article('1')], button: { text: 'Go', start_parameter: 'go' } }, { as: 'form' });
    expect(body.ok).toBe(true);
    expect(api.inlineAnswer(id)?.results).toEqual([article('1')]);
    expect(api.callsTo('answerInlineQuery')[0]?.params.button).toEqual({ text: 'Go', start_parameter: 'go' });
    const bad = await call('answerInlineQuery', { inline_query_id: api.sendInlineQuery({ from: user, query: 'q' }), results: '[{' }, { as: 'form' });
    expect(bad.body).toMatchObject({ ok: false, description: expect.stringMatching(/^Bad Request: can't parse JSON encoded inline query results: /) });
    await fails('answerInlineQuery', { inline_query_id: id, results: { id: 1 } }, 400, 'Bad Request: expected an Array of inline query results');
  });
});

describe('messages sent via inline mode', () => {
  // they are not emulated, so no inline_message_id names one: Telegram's answer is MESSAGE_ID_INVALID
  it('answers edits by inline_message_id with MESSAGE_ID_INVALID, after checking the rest', async () => {
    const inlineMessageId = 'AgAAAN4AAAA8_wAA1cTIEgm1HTQ';
    await fails('editMessageText', { inline_message_id: inlineMessageId, text: 'x' }, 400, 'Bad Request: MESSAGE_ID_INVALID');
    await fails('editMessageReplyMarkup', { inline_message_id: inlineMessageId }, 400, 'Bad Request: MESSAGE_ID_INVALID');
    await fails('editMessageText', { inline_message_id: inlineMessageId, text: '<b>x', parse_mode: 'HTML' }, 400, /^Bad Request: can't parse entities: /);
    await fails('editMessageText', { inline_message_id: inlineMessageId }, 400, 'Bad Request: message text is empty');
    await fails('editMessageText', { text: 'x' }, 400, 'Bad Request: message identifier is not specified');
    await fails('editMessageReplyMarkup', {}, 400, 'Bad Request: message identifier is not specified');
    // with chat_id and message_id given, the Bot API ignores inline_message_id
    api.sendText({ from: user, text: 'hi' });
    const sent = await ok<{ message_id: number }>('sendMessage', { chat_id: user.id, text: 'one' });
    const edited = await ok('editMessageText', { chat_id: user.id, message_id: sent.message_id, inline_message_id: inlineMessageId, text: 'two' });
    expect(edited).toMatchObject({ message_id: sent.message_id, text: 'two' });
  });
});

describe('inline mode with Telegraf', () => {
  it('answers an inline query through ctx.answerInlineQuery', async () => {
    const bot = new Telegraf(api.token, { telegram: { apiRoot: api.apiRoot } });
    bot.on('inline_query', (ctx) =>
      ctx.answerInlineQuery(
        [
          {
            type: 'article',
            id: `order:${ctx.inlineQuery.query}`,
            title: `Order ${ctx.inlineQuery.query}`,
            description: 'In production',
            input_message_content: { message_text: `<b>Order ${ctx.inlineQuery.query}</b>: in production`, parse_mode: 'HTML' },
            reply_markup: { inline_keyboard: [[{ text: 'Details', callback_data: `o:${ctx.inlineQuery.query}` }]] },
          },
        ],
        { cache_time: 10, is_personal: true, next_offset: ctx.inlineQuery.offset === '' ? '20' : '' },
      ),
    );
    const running = bot.launch();
    stopBot = async () => {
      bot.stop('test over');
      await running;
    };
    await api.waitForPolling();

    const id = api.sendInlineQuery({ from: user, query: '0007300100', chatType: 'sender' });
    const answered = await api.waitForInlineAnswer(id);
    expect(answered).toMatchObject({
      cache_time: 10,
      is_personal: true,
      next_offset: '20',
      results: [{ type: 'article', id: 'order:0007300100', title: 'Order 0007300100' }],
    });
    const next = api.sendInlineQuery({ from: user, query: '0007300100', offset: '20' });
    expect((await api.waitForInlineAnswer(next)).next_offset).toBe('');
    await api.waitForIdle();
    expect(api.failedCalls()).toEqual([]);
  });
});
