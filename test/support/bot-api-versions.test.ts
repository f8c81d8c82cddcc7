import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@grammyjs/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// The older server switch (startBotApi({ botApiVersion })): as telegram-bot-api of that version
// behaves, 404 for the methods it lacks, the fields it does not know ignored and recorded.

let api: BotApi;
const { call, ok, fails } = caller(() => api);
afterEach(() => api.close());

const start = async (botApiVersion?: '9.3' | '9.4' | '9.5' | '10.0' | '10.1' | '10.2') => {
  api = await startBotApi(botApiVersion === undefined ? {} : { botApiVersion });
  const ann = api.createUser({ first_name: 'Ann' });
  api.sendText({ from: ann, text: 'hi' });
  return ann;
};

describe('an older Bot API server', () => {
  it('answers 404 for a method it lacks, as for one it never had', async () => {
    const ann = await start('10.0');
    const { status, body } = await call('sendRichMessage', { chat_id: ann.id, rich_message: { html: '<p>a</p>' } });
    expect(status).toBe(404);
    expect(body).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
    expect(api.callsTo('sendRichMessage')).toHaveLength(1);
  });

  it('has the method from the version that brought it', async () => {
    const ann = await start('10.1');
    await ok('sendRichMessage', { chat_id: ann.id, rich_message: { html: '<p>a</p>' } });
    expect(api.botApiVersion).toBe('10.1');
  });

  it('ignores a field it does not know, and the call records it', async () => {
    const ann = await start('9.3');
    const keyboard = { inline_keyboard: [[{ text: '🔕', callback_data: 'u:1', style: 'danger' }, { text: '📋', copy_text: { text: '42' } }]] };
    const sent = await ok<Message>('sendMessage', { chat_id: ann.id, text: 'watch', reply_markup: keyboard });
    expect(sent.reply_markup?.inline_keyboard).toEqual([[{ text: '🔕', callback_data: 'u:1' }, { text: '📋', copy_text: { text: '42' } }]]);
    const [call] = api.callsTo('sendMessage');
    expect(api.ignoredFields()).toEqual([{ seq: call?.seq, method: 'sendMessage', field: 'reply_markup.inline_keyboard[0][0].style', since: '9.4' }]);
    // The call keeps what the bot sent.
    expect(call?.params.reply_markup).toEqual(keyboard);
    expect(api.failedCalls()).toEqual([]);
  });

  it('refuses the whole keyboard when a button it reads has no action left (disabled, before 10.3)', async () => {
    const ann = await start('10.2');
    const keyboard = { inline_keyboard: [[{ text: '◀', disabled: {} }, { text: '1/3', callback_data: 'n' }, { text: '▶', callback_data: 'p:5:5' }]] };
    await fails('sendMessage', { chat_id: ann.id, text: 'page', reply_markup: keyboard }, 400, "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
    expect(api.ignoredFields().map((ignored) => ignored.field)).toEqual(['reply_markup.inline_keyboard[0][0].disabled']);
    expect(api.messagesIn(ann.id)).toEqual([]);
  });

  it('ignores rich_message in editMessageText before 10.1, and with no text left refuses the edit', async () => {
    const ann = await start('10.0');
    const sent = await ok<Message>('sendMessage', { chat_id: ann.id, text: 'results' });
    await fails('editMessageText', { chat_id: ann.id, message_id: sent.message_id, rich_message: { html: '<p>record</p>' } }, 400, 'Bad Request: message text is empty');
    expect(api.ignoredFields()).toMatchObject([{ method: 'editMessageText', field: 'rich_message', since: '10.1' }]);
  });

  it('sends in getMe only the keys of its version', async () => {
    await start('9.3');
    const old = await ok<Record<string, unknown>>('getMe');
    expect(old).toMatchObject({ can_connect_to_business: false, has_main_web_app: false, has_topics_enabled: false });
    expect(Object.keys(old)).not.toContain('allows_users_to_create_topics');
    await api.close();
    await start();
    expect(await ok('getMe')).toMatchObject({ allows_users_to_create_topics: false, can_manage_bots: false, supports_guest_queries: false, supports_join_request_queries: false });
  });

  it('parses <tg-time> in HTML from 9.5 on: a date_time entity; before, an unknown tag', async () => {
    const ann = await start('9.5');
    const sent = await ok<Message>('sendMessage', { chat_id: ann.id, text: 'updated <tg-time unix="1795000000" format="t">14:05</tg-time>', parse_mode: 'HTML' });
    expect(sent.text).toBe('updated 14:05');
    expect(sent.entities).toEqual([{ type: 'date_time', offset: 8, length: 5, unix_time: 1795000000, date_time_format: 't' }]);
    await fails('sendMessage', { chat_id: ann.id, text: '<tg-time unix="1" format="x">a</tg-time>', parse_mode: 'HTML' }, 400, /Invalid date and time format "x"/);
    await api.close();
    const bob = await start('9.4');
    await fails('sendMessage', { chat_id: bob.id, text: 'updated <tg-time unix="1795000000">14:05</tg-time>', parse_mode: 'HTML' }, 400, `Bad Request: can't parse entities: Unsupported start tag "tg-time" at byte offset 8`);
  });
});
