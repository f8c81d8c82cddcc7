import { describe, expect, it } from 'vitest';
import type { InlineKeyboardButton } from '@grammyjs/types';
import { createServerFeatures, type ServerFeatures } from '../../src/telegram/capabilities.ts';
import { fitHtml, fitKeyboard, withFittedKeyboard } from '../../src/telegram/fit.ts';
import { TelegramError } from '../../src/telegram/telegraf/core.ts';

const quiet = { info: () => undefined, warn: () => undefined };
const server = (me: object, mode: 'auto' | 'legacy' = 'auto'): ServerFeatures => {
  const features = createServerFeatures({ mode, logger: quiet });
  features.readGetMe(() => me);
  return features;
};
const CURRENT = { can_connect_to_business: false, has_main_web_app: false, has_topics_enabled: false, allows_users_to_create_topics: false, can_manage_bots: false, supports_guest_queries: false, supports_join_request_queries: false };
const V9_3 = { can_connect_to_business: false, has_main_web_app: false, has_topics_enabled: false };

const keyboard: InlineKeyboardButton[][] = [
  [{ text: '◀', disabled: {} }, { text: '1/2', callback_data: 'n' }, { text: '▶', callback_data: 'p' }],
  [{ text: '📋 42', copy_text: { text: '42' } }],
  [{ text: '🔔', callback_data: 'w', style: 'primary' }],
];

describe('a message fitted to the server', () => {
  it('a current server takes the keyboard as it is: the same array', () => {
    expect(fitKeyboard(keyboard, server(CURRENT))).toBe(keyboard);
  });

  it('a 9.3 server: no disabled button, no style; copy buttons (7.11) stay', () => {
    expect(fitKeyboard(keyboard, server(V9_3))).toEqual([[{ text: '1/2', callback_data: 'n' }, { text: '▶', callback_data: 'p' }], [{ text: '📋 42', copy_text: { text: '42' } }], [{ text: '🔔', callback_data: 'w' }]]);
  });

  it('legacy: none of them, a row left empty goes', () => {
    expect(fitKeyboard(keyboard, server(CURRENT, 'legacy'))).toEqual([[{ text: '1/2', callback_data: 'n' }, { text: '▶', callback_data: 'p' }], [{ text: '🔔', callback_data: 'w' }]]);
  });

  it('<tg-time> becomes its text where the server has no date_time entities', () => {
    const html = '<i>updated <tg-time unix="1795431900" format="t">14:05</tg-time></i>';
    expect(fitHtml(html, server(CURRENT))).toBe(html);
    expect(fitHtml(html, server(V9_3))).toBe('<i>updated 14:05</i>');
  });

  it('a keyboard refused for a disabled button: sent again without, and no disabled button is tried again', async () => {
    const features = server(CURRENT);
    const sent: InlineKeyboardButton[][][] = [];
    const refusal = new TelegramError({ error_code: 400, description: "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard" });
    const send = async (fitted: InlineKeyboardButton[][]) => {
      sent.push(fitted);
      if (fitted.flat().some((button) => 'disabled' in button)) throw refusal;
      return 'ok';
    };
    expect(await withFittedKeyboard(keyboard, features, send)).toBe('ok');
    expect(sent.map((fitted) => fitted[0]?.map((button) => button.text))).toEqual([['◀', '1/2', '▶'], ['1/2', '▶']]);
    expect(features.has('disabledButtons')).toBe(false);
    // Any other refusal is the caller's.
    const other = new TelegramError({ error_code: 400, description: 'Bad Request: chat not found' });
    await expect(withFittedKeyboard(keyboard, server(CURRENT), () => Promise.reject(other))).rejects.toBe(other);
  });
});
