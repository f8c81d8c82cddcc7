import type { InlineKeyboardButton } from './telegraf/core.ts';

/** What a view renders: the message text (HTML) and its inline keyboard. */
export type View = { text: string; keyboard: InlineKeyboardButton[][] };
