// Everything the emulated Telegram remembers, shared by the HTTP methods and the test-facing API.
import type { BotCommand, Chat, InlineQueryResultsButton, User, UserFromGetMe } from 'telegraf/types';
import type { InlineKeyboardMarkup, MessageEntity } from '@grammyjs/types';
import { ChatStore } from './chats.ts';
import { Clock } from './clock.ts';
import { ChangeFeed } from './feed.ts';
import type { StoredRich } from './rich-message.ts';
import { UpdateQueue } from './updates.ts';
import type { BotApiVersion } from './versions.ts';

/** How long Telegram lets a bot answer a callback query. */
export const CALLBACK_ANSWER_WINDOW_MS = 15_000;
/** How long Telegram lets a bot answer an inline query (the client stops waiting about then). */
export const INLINE_ANSWER_WINDOW_MS = 10_000;

/**
 * How long a guest query may be answered. The Bot API states no lifetime (botapi-10.md §5): the
 * emulator gives it the inline query's, so a bot that answers promptly passes either way.
 */
export const GUEST_ANSWER_WINDOW_MS = 10_000;

export interface CallbackAnswer {
  text: string | undefined;
  show_alert: boolean;
  url: string | undefined;
  cache_time: number | undefined;
  at_ms: number;
}

export interface CallbackQueryRecord {
  id: string;
  from: User;
  chat_id: number;
  message_id: number;
  data: string;
  created_ms: number;
  forged: boolean;
  answer: CallbackAnswer | undefined;
  /** pressed on an ephemeral message (message_id is then 0) */
  ephemeral_message_id: number | undefined;
}

export interface CommandsRecord {
  scope: Record<string, unknown>;
  language_code: string;
  commands: BotCommand[];
}

export interface WebhookRecord {
  url: string;
  params: Record<string, unknown>;
}

/** The last failed webhook post, as getWebhookInfo reports it (cleared by setWebhook). */
export interface WebhookError {
  /** unix seconds */
  date: number;
  message: string;
}

export interface InlineAnswerRecord {
  inline_query_id: string;
  /** the results as sent, JSON decoded */
  results: unknown[];
  /** every parameter as received */
  params: Record<string, unknown>;
  at_ms: number;
  /** as Telegram applies it: 300 when not given, at most 86400 */
  cache_time: number;
  is_personal: boolean;
  next_offset: string;
  /** the button above the results (switch_pm_text / switch_pm_parameter read as one) */
  button: InlineQueryResultsButton | undefined;
}

/** "sender" is the private chat with the user who types the query. */
export type InlineChatType = 'sender' | 'private' | 'group' | 'supergroup' | 'channel';

export interface InlineQueryRecord {
  id: string;
  from: User;
  query: string;
  offset: string;
  chat_type: InlineChatType | undefined;
  created_ms: number;
  answer: InlineAnswerRecord | undefined;
}

/** A guest message the bot got (guest_message update) and how it answered its guest_query_id. */
export interface GuestQueryRecord {
  id: string;
  from: User;
  chat: Chat;
  created_ms: number;
  answer: GuestAnswerRecord | undefined;
}

export interface GuestAnswerRecord {
  guest_query_id: string;
  /** the InlineQueryResult as sent, JSON decoded */
  result: unknown;
  inline_message_id: string;
  at_ms: number;
}

/** A message the bot sent into a chat it is not in (answerGuestQuery), edited by its inline_message_id. */
export interface InlineMessageRecord {
  inline_message_id: string;
  guest_query_id: string;
  chat_id: number;
  text: string;
  entities: MessageEntity[];
  rich: StoredRich | undefined;
  reply_markup: InlineKeyboardMarkup | undefined;
  edit_count: number;
  /** unix seconds of the last edit */
  edit_date: number | undefined;
}

export interface EmulatorOptions {
  strictHtmlAmpersand: boolean;
  /** the Bot API version the emulator plays: older ones lack methods and ignore fields (versions.ts) */
  botApiVersion: BotApiVersion;
}

export interface EmulatorState {
  readonly token: string;
  readonly bot: UserFromGetMe;
  readonly options: EmulatorOptions;
  readonly clock: Clock;
  readonly feed: ChangeFeed;
  readonly chats: ChatStore;
  readonly updates: UpdateQueue;
  readonly callbackQueries: Map<string, CallbackQueryRecord>;
  /** keyed by commandsKey(scope, language_code) */
  readonly commands: Map<string, CommandsRecord>;
  webhook: WebhookRecord | undefined;
  webhookError: WebhookError | undefined;
  /** Emulated ms before which another setWebhook with a URL gets 429 (Telegram allows one a second). */
  nextSetWebhookAtMs: number;
  readonly inlineQueries: Map<string, InlineQueryRecord>;
  /** every accepted answerInlineQuery, in order */
  readonly inlineAnswers: InlineAnswerRecord[];
  readonly guestQueries: Map<string, GuestQueryRecord>;
  /** messages sent by answerGuestQuery, by inline_message_id */
  readonly inlineMessages: Map<string, InlineMessageRecord>;
}

export function createState(token: string, bot: UserFromGetMe, options: EmulatorOptions): EmulatorState {
  const feed = new ChangeFeed();
  return {
    token,
    bot,
    options,
    clock: new Clock(),
    feed,
    chats: new ChatStore(),
    updates: new UpdateQueue(feed),
    callbackQueries: new Map(),
    commands: new Map(),
    webhook: undefined,
    webhookError: undefined,
    nextSetWebhookAtMs: 0,
    inlineQueries: new Map(),
    inlineAnswers: [],
    guestQueries: new Map(),
    inlineMessages: new Map(),
  };
}

export const commandsKey = (scope: Record<string, unknown>, languageCode: string): string =>
  `${JSON.stringify(Object.entries(scope).sort(([a], [b]) => a.localeCompare(b)))}|${languageCode}`;

/** The bot as it appears in `from` of its own messages (getMe's extra fields are not there). */
export const botAsSender = (bot: UserFromGetMe): User => ({
  id: bot.id,
  is_bot: true,
  first_name: bot.first_name,
  username: bot.username,
});
