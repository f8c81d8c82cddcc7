import type { InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, RichBlock } from '@grammyjs/types';
import type { StoredDocument, StoredMessage } from './chats.ts';
import type { ParseMode } from './text.ts';

/** A file the bot sent, as the user would download it. */
export interface BotDocument {
  file_id: string;
  file_unique_id: string;
  file_name: string;
  mime_type: string;
  /** the Content-Type of the uploaded part as the bot sent it ('' without one) */
  upload_type: string;
  file_size: number;
  bytes: Buffer<ArrayBuffer>;
}

/** A document in a chat, as api.documentsIn lists it. */
export interface SentDocument {
  message_id: number;
  file_name: string;
  mime_type: string;
  /** the Content-Type of the uploaded part as the bot sent it ('' without one) */
  upload_type: string;
  bytes: Buffer<ArrayBuffer>;
  /** plain text after parsing; undefined without a caption */
  caption: string | undefined;
  caption_entities: MessageEntity[];
  message_thread_id: number | undefined;
  reply_to_message_id: number | undefined;
}

/** A bot message as it stands in the chat (after edits), as tests look at it. */
export interface BotMessage {
  chat_id: number;
  message_id: number;
  /** unix seconds */
  date: number;
  /** emulated milliseconds at sending, for rate assertions */
  sent_at_ms: number;
  /** plain text after parsing: what the user reads, what the 4096 limit counts; a document's caption ('' without one) */
  text: string;
  /** the text (or caption) parameter as sent when parse_mode was HTML */
  html: string | undefined;
  /** the text (or caption) parameter as sent, whatever the parse mode */
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
  /** sendDocument's file; then text, html, source and entities are its caption's */
  document: BotDocument | undefined;
  /**
   * sendRichMessage's content: the InputRichMessage as sent and the blocks a reader gets; then
   * `text` is the blocks as plain lines (a table row's cells joined by " | ").
   */
  rich: { source: Record<string, unknown>; blocks: RichBlock[] } | undefined;
  /** an ephemeral message's id (message_id is then 0) and the one user who sees it */
  ephemeral_message_id: number | undefined;
  receiver_user_id: number | undefined;
  /** the public message this ephemeral one is shown in place of, for its receiver */
  replaces_message_id: number | undefined;
}

export function toBotMessage({ document, rich, ephemeral, replaces_message_id: replaces, ...message }: StoredMessage): BotMessage {
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
    document: document === undefined ? undefined : toBotDocument(document),
    rich: rich === undefined ? undefined : { source: structuredClone(rich.source), blocks: structuredClone(rich.blocks) },
    ephemeral_message_id: ephemeral?.ephemeral_message_id,
    receiver_user_id: ephemeral?.receiver_user_id,
    replaces_message_id: replaces,
  };
}

const toBotDocument = ({ bytes, ...file }: StoredDocument): BotDocument => ({ ...file, file_size: bytes.length, bytes: Buffer.from(bytes) });

export const toSentDocument = (message: BotMessage, document: BotDocument): SentDocument => ({
  message_id: message.message_id,
  file_name: document.file_name,
  mime_type: document.mime_type,
  upload_type: document.upload_type,
  bytes: document.bytes,
  caption: message.text === '' ? undefined : message.text,
  caption_entities: message.entities,
  message_thread_id: message.message_thread_id,
  reply_to_message_id: message.reply_to_message_id,
});
