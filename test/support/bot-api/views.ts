import type { InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity } from 'telegraf/types';
import type { StoredMessage } from './chats.ts';
import type { ParseMode } from './text.ts';

/** A bot message as it stands in the chat (after edits), as tests look at it. */
export interface BotMessage {
  chat_id: number;
  message_id: number;
  /** unix seconds */
  date: number;
  /** emulated milliseconds at sending, for rate assertions */
  sent_at_ms: number;
  /** plain text after parsing: what the user reads, what the 4096 limit counts */
  text: string;
  /** the text parameter as sent when parse_mode was HTML */
  html: string | undefined;
  /** the text parameter as sent, whatever the parse mode */
  source: string;
  parse_mode: ParseMode | undefined;
  entities: MessageEntity[];
  reply_markup: InlineKeyboardMarkup | undefined;
  /** every inline button, row after row */
  buttons: InlineKeyboardButton[];
  /** a reply keyboard, remove_keyboard or force_reply sent with the message */
  reply_keyboard: Record<string, unknown> | undefined;
  reply_to_message_id: number | undefined;
  message_thread_id: number | undefined;
  edit_count: number;
  edit_date: number | undefined;
  deleted: boolean;
}

export function toBotMessage(message: StoredMessage): BotMessage {
  const copy = structuredClone(message);
  return {
    chat_id: copy.chat_id,
    message_id: copy.message_id,
    date: copy.date,
    sent_at_ms: copy.sent_at_ms,
    text: copy.text,
    html: copy.parse_mode === 'HTML' ? copy.source : undefined,
    source: copy.source,
    parse_mode: copy.parse_mode,
    entities: copy.entities,
    reply_markup: copy.reply_markup,
    buttons: copy.reply_markup?.inline_keyboard.flat() ?? [],
    reply_keyboard: copy.reply_keyboard,
    reply_to_message_id: copy.reply_to_message_id,
    message_thread_id: copy.message_thread_id,
    edit_count: copy.edit_count,
    edit_date: copy.edit_date,
    deleted: copy.deleted,
  };
}
