import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '@grammyjs/types';
import type { User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// Inline buttons since Bot API 7.11: copy_text (7.11), style (9.4), disabled (10.3); botapi-10.md §2.

let api: BotApi;
let ann: User;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
  api.sendText({ from: ann, text: 'hi' });
});
afterEach(() => api.close());

const withButtons = (...buttons: Array<Record<string, unknown>>) => ({ chat_id: ann.id, text: 'page', reply_markup: { inline_keyboard: [buttons] } });
const parseError = (detail: string) => `Bad Request: can't parse inline keyboard button: ${detail}`;

describe('inline buttons', () => {
  it('keep their style, copy a text, and may be disabled', async () => {
    const sent = await ok<Message>(
      'sendMessage',
      withButtons(
        { text: '◀', disabled: {} },
        { text: '1/2', callback_data: 'n' },
        { text: '📋 0007300100', copy_text: { text: '0007300100' } },
        { text: '🔕', callback_data: 'u:1', style: 'danger' },
      ),
    );
    const buttons = [{ text: '◀', disabled: {} }, { text: '1/2', callback_data: 'n' }, { text: '📋 0007300100', copy_text: { text: '0007300100' } }, { text: '🔕', callback_data: 'u:1', style: 'danger' }];
    expect(sent.reply_markup?.inline_keyboard).toEqual([buttons]);
    expect(api.messagesIn(ann.id)[0]?.buttons).toEqual(buttons);
  });

  it('take a style of danger, success or primary only', async () => {
    for (const style of ['danger', 'success', 'primary']) await ok('sendMessage', withButtons({ text: 'x', callback_data: 'x', style }));
    await fails('sendMessage', withButtons({ text: 'x', callback_data: 'x', style: 'link' }), 400, parseError('invalid button style specified'));
    await fails('sendMessage', withButtons({ text: 'x', disabled: {}, style: 'secondary' }), 400, parseError('invalid button style specified'));
  });

  it('copy a text of 1–256 characters', async () => {
    await ok('sendMessage', withButtons({ text: 'x', copy_text: { text: 'я'.repeat(256) } }));
    await fails('sendMessage', withButtons({ text: 'x', copy_text: { text: 'я'.repeat(257) } }), 400, parseError('the text to copy must be 1-256 characters'));
    await fails('sendMessage', withButtons({ text: 'x', copy_text: { text: '' } }), 400, parseError('the text to copy must be 1-256 characters'));
    await fails('sendMessage', withButtons({ text: 'x', copy_text: '0007300100' }), 400, parseError('Field "copy_text" must be of type Object'));
  });

  it('disabled: a button type of its own, with no action beside it', async () => {
    await fails('sendMessage', withButtons({ text: '◀', disabled: {}, callback_data: 'p:5:0' }), 400, parseError('exactly one of the optional fields must be used, found callback_data, disabled'));
    await fails('sendMessage', withButtons({ text: '◀', disabled: true }), 400, parseError('Field "disabled" must be of type Object'));
  });
});
