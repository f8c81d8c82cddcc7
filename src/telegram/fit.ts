import type { InlineKeyboardButton } from './telegraf/core.ts';
import type { ServerFeatures } from './capabilities.ts';
import { TelegramError } from './telegraf/core.ts';

// Views draw for the newest server; what they draw is fitted here to the server at hand, so that
// no field goes out that it would ignore: a disabled button is left out (as before 10.3, where
// the pager had no ◀ on its first page), a copy button too, a style dropped, a <tg-time> left as
// its text, which is what older clients show anyway.

type Keyboard = InlineKeyboardButton[][];

const unstyled = (button: InlineKeyboardButton): InlineKeyboardButton => {
  const { style: _style, ...rest } = button;
  return rest;
};

/** The keyboard as the server can take it: the same array when nothing needs to change. */
export const fitKeyboard = (keyboard: Keyboard, features: ServerFeatures): Keyboard => {
  const disabled = features.has('disabledButtons');
  const copy = features.has('copyText');
  const style = features.has('buttonStyle');
  const keeps = (button: InlineKeyboardButton) => (disabled || !('disabled' in button)) && (copy || !('copy_text' in button));
  if (keyboard.every((row) => row.every((button) => keeps(button) && (style || button.style === undefined)))) return keyboard;
  return keyboard.map((row) => row.filter(keeps).map((button) => (style ? button : unstyled(button)))).filter((row) => row.length > 0);
};

export const hasDisabledButton = (keyboard: Keyboard): boolean => keyboard.some((row) => row.some((button) => 'disabled' in button));

const TIME_TAG = /<\/?tg-time\b[^>]*>/g;

/** HTML (of a text or a rich message) as the server can take it: <tg-time> left as its text before 9.5. */
export const fitHtml = (html: string, features: ServerFeatures): string =>
  html.includes('<tg-time') && !features.has('dateTimeEntities') ? html.replace(TIME_TAG, '') : html;

/**
 * What a server that does not read `disabled` answers for a keyboard with such a button: the
 * button is left with no action it knows, and the keyboard is refused (botapi-10.md §2).
 */
export const isButtonWithoutAction = (error: unknown): boolean =>
  error instanceof TelegramError && error.code === 400 && /Text buttons are unallowed in the inline keyboard/i.test(error.response.description ?? '');

/** A method the server does not have (asked after getMe went through: not a wrong token). */
export const isMissingMethod = (error: unknown): boolean => error instanceof TelegramError && error.code === 404;

/**
 * Sends `keyboard` fitted to the server; if the server refuses a disabled button it does not
 * read, disabled buttons are off for the process and the call goes again without them.
 */
export const withFittedKeyboard = async <T>(keyboard: Keyboard, features: ServerFeatures, send: (keyboard: Keyboard) => Promise<T>): Promise<T> => {
  const fitted = fitKeyboard(keyboard, features);
  try {
    const result = await send(fitted);
    if (hasDisabledButton(fitted)) features.confirm('disabledButtons');
    return result;
  } catch (error) {
    if (!hasDisabledButton(fitted) || !isButtonWithoutAction(error)) throw error;
    features.lacks('disabledButtons', { refused: 'a keyboard with a disabled button' });
    return send(fitKeyboard(keyboard, features));
  }
};
