import type { InlineKeyboardButton } from './telegraf/core.ts';

/** What a view renders: the message text (HTML) and its inline keyboard. */
export type View = { text: string; keyboard: InlineKeyboardButton[][] };

/**
 * A rich message (Bot API 10.1: the `html` of an InputRichMessage) and its keyboard, with the HTML
 * view to show instead where it cannot be sent: an older server, or content Telegram refused.
 */
export type RichView = {
  rich: string;
  keyboard: InlineKeyboardButton[][];
  fallback: () => View;
  /** What the message shows, for a log line that must not carry its content (a record's SAP number). */
  label: string;
};

export type MessageView = View | RichView;

export const isRichView = (view: MessageView): view is RichView => 'rich' in view;
