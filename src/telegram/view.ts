import type { InlineKeyboardButton } from 'telegraf/types';

/** What a view renders: the message text (HTML) and its inline keyboard. */
export type View = { text: string; keyboard: InlineKeyboardButton[][] };
