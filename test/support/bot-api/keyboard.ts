// reply_markup validation. Descriptions follow the Bot API server ("can't parse inline keyboard
// button: ...", BUTTON_DATA_INVALID); the limits on button counts are approximations. A button
// keeps its style (9.4) and may copy a text (7.11) or be disabled (10.3): a disabled button is a
// button type of its own, so it carries no other action (botapi-10.md §2).
import type { InlineKeyboardButton, InlineKeyboardMarkup } from '@grammyjs/types';
import { badRequest } from './errors.ts';

export const MAX_BUTTONS = 100;
export const MAX_BUTTONS_PER_ROW = 8;
export const MAX_CALLBACK_DATA_BYTES = 64;

const ACTION_FIELDS = [
  'url', 'callback_data', 'web_app', 'login_url', 'switch_inline_query', 'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat', 'copy_text', 'callback_game', 'pay', 'disabled',
] as const;

export const BUTTON_STYLES = ['danger', 'success', 'primary'] as const;
export const MAX_COPY_TEXT_LENGTH = 256;

export interface ReplyMarkup {
  /** The inline keyboard as the message will carry it; undefined when it has no buttons. */
  inline: InlineKeyboardMarkup | undefined;
  /** A reply keyboard, remove_keyboard or force_reply, as sent (these never appear on the message). */
  other: Record<string, unknown> | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readReplyMarkup(value: unknown, { inlineOnly }: { inlineOnly: boolean }): ReplyMarkup | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw badRequest("can't parse reply keyboard markup JSON object");
  if ('inline_keyboard' in value) return { inline: readInlineKeyboard(value.inline_keyboard), other: undefined };
  if (inlineOnly) throw badRequest('inline keyboard expected');
  if ('keyboard' in value) {
    const rows = value.keyboard;
    if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) {
      throw badRequest('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
    }
    for (const button of rows.flat() as unknown[]) {
      const text = isObject(button) ? button.text : button;
      if (typeof text !== 'string') throw badRequest('can\'t parse keyboard button: Field "text" must be of type String');
      if (text === '') throw badRequest('BUTTON_TEXT_EMPTY');
    }
    return { inline: undefined, other: structuredClone(value) };
  }
  if (value.remove_keyboard === true || value.force_reply === true) return { inline: undefined, other: structuredClone(value) };
  throw badRequest("can't parse reply keyboard markup JSON object");
}

function readInlineKeyboard(rows: unknown): InlineKeyboardMarkup | undefined {
  if (!Array.isArray(rows)) throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array');
  const result: InlineKeyboardButton[][] = [];
  let total = 0;
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row)) {
      throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
    }
    if (row.length > MAX_BUTTONS_PER_ROW) throw badRequest('REPLY_MARKUP_TOO_LONG');
    total += row.length;
    if (total > MAX_BUTTONS) throw badRequest('REPLY_MARKUP_TOO_LONG');
    const buttons = (row as unknown[]).map(readInlineButton);
    if (buttons.length > 0) result.push(buttons);
  }
  return result.length === 0 ? undefined : { inline_keyboard: result };
}

const buttonError = (detail: string) => badRequest(`can't parse inline keyboard button: ${detail}`);

function readInlineButton(button: unknown): InlineKeyboardButton {
  if (!isObject(button)) throw buttonError('InlineKeyboardButton must be an Object');
  if (typeof button.text !== 'string') throw buttonError('Field "text" must be of type String');
  if (button.text.trim() === '') throw badRequest('BUTTON_TEXT_EMPTY');
  const actions = ACTION_FIELDS.filter((field) => button[field] !== undefined && button[field] !== null);
  const [action] = actions;
  if (action === undefined) throw buttonError('Text buttons are unallowed in the inline keyboard');
  if (actions.length > 1) throw buttonError(`exactly one of the optional fields must be used, found ${actions.join(', ')}`);
  const value = button[action];
  const style = button.style;
  if (style !== undefined && style !== null && !(BUTTON_STYLES as readonly unknown[]).includes(style)) throw buttonError('invalid button style specified');
  switch (action) {
    case 'callback_data': {
      if (typeof value !== 'string') throw buttonError('Field "callback_data" must be of type String');
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes < 1 || bytes > MAX_CALLBACK_DATA_BYTES) throw badRequest('BUTTON_DATA_INVALID');
      break;
    }
    case 'url':
      if (typeof value !== 'string') throw buttonError('Field "url" must be of type String');
      if (!isButtonUrl(value)) throw badRequest('BUTTON_URL_INVALID');
      break;
    case 'switch_inline_query':
    case 'switch_inline_query_current_chat':
      if (typeof value !== 'string') throw buttonError(`Field "${action}" must be of type String`);
      break;
    case 'web_app':
    case 'login_url':
      if (!isObject(value) || typeof value.url !== 'string') throw buttonError(`Field "${action}" must be of type Object`);
      if (!isButtonUrl(value.url)) throw badRequest('BUTTON_URL_INVALID');
      break;
    case 'copy_text': {
      if (!isObject(value)) throw buttonError('Field "copy_text" must be of type Object');
      const length = typeof value.text === 'string' ? [...value.text].length : 0;
      if (length < 1 || length > MAX_COPY_TEXT_LENGTH) throw buttonError(`the text to copy must be 1-${MAX_COPY_TEXT_LENGTH} characters`);
      break;
    }
    default:
      if (action !== 'pay' && !isObject(value)) throw buttonError(`Field "${action}" must be of type Object`);
  }
  return {
    text: button.text,
    [action]: structuredClone(value),
    ...(typeof style === 'string' ? { style } : {}),
    ...(typeof button.icon_custom_emoji_id === 'string' ? { icon_custom_emoji_id: button.icon_custom_emoji_id } : {}),
  } as unknown as InlineKeyboardButton;
}

function isButtonUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'tg:') return true;
  return (protocol === 'http:' || protocol === 'https:') && hostname.includes('.');
}

/** Canonical form for "is the markup unchanged" comparisons. */
export const markupKey = (markup: InlineKeyboardMarkup | undefined): string => JSON.stringify(markup ?? null);

export function findCallbackButton(markup: InlineKeyboardMarkup | undefined, data: string): InlineKeyboardButton | undefined {
  return markup?.inline_keyboard.flat().find((b) => 'callback_data' in b && b.callback_data === data);
}

export function callbackDataOf(markup: InlineKeyboardMarkup | undefined): string[] {
  return (markup?.inline_keyboard.flat() ?? []).flatMap((b) => ('callback_data' in b ? [b.callback_data] : []));
}
