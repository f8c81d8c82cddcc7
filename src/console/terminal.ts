import type { InlineKeyboardButton } from '../telegram/telegraf/core.ts';
import { decodeEntities } from '../bot/views/common/html.ts';
import { richToTerminal } from './rich-text.ts';

// How a bot message looks in a terminal: HTML tags become ANSI styles (or nothing when the output
// is not a terminal), entities are decoded, buttons are numbered for pressing.

/** A bot message as the terminal shows it: `html` is a rich message's content when `rich`. */
export type ConsoleMessage = { id: number; html: string; keyboard: InlineKeyboardButton[][]; edited: boolean; rich?: boolean };

export const htmlToTerminal = (html: string, color: boolean): string =>
  decodeEntities(
    html
      .replace(/<(\/?)(b|strong|i|em|u|code)>/g, (_, close: string, tag: string) => {
        if (!color) return '';
        if (close) return '\x1b[0m';
        return tag === 'i' || tag === 'em' ? '\x1b[3m' : tag === 'u' ? '\x1b[4m' : '\x1b[1m';
      })
      .replace(/<[^>]+>/g, ''),
  );

/**
 * Numbers buttons from 1, row by row, and returns the lines to print with the callback data behind
 * each number. A disabled button is shown in parentheses and a copy button with what it copies;
 * neither has a number.
 */
export const numberButtons = (message: ConsoleMessage) => {
  const pressable: string[] = [];
  const lines = message.keyboard.map((row) =>
    row
      .map((button) => {
        if ('disabled' in button) return `(${button.text})`;
        if ('copy_text' in button) return `[${button.text} ⧉ ${button.copy_text.text}]`;
        if (!('callback_data' in button)) return `[${button.text}]`;
        pressable.push(button.callback_data);
        return `[${pressable.length}] ${button.text}`;
      })
      .join('   '),
  );
  return { lines, pressable };
};

export const renderConsoleMessage = (message: ConsoleMessage, color: boolean): string => {
  const { lines } = numberButtons(message);
  const marker = message.edited ? '(edited) ' : '';
  const body = message.rich ? richToTerminal(message.html, color) : htmlToTerminal(message.html, color);
  return [`\n🤖 ${marker}${body}`, ...lines.map((line) => `   ${line}`)].join('\n');
};

/** A document the bot sent, once saved: where it is, and its caption. */
export const renderConsoleDocument = (path: string, caption: string | undefined, color: boolean): string =>
  [`\n🤖 📎 ${path}`, ...(caption === undefined ? [] : [htmlToTerminal(caption, color)])].join('\n');
