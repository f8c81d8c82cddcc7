// Everything the emulated Telegram remembers, shared by the HTTP methods and the test-facing API.
import type { BotCommand, User, UserFromGetMe } from 'telegraf/types';
import { ChatStore } from './chats.ts';
import { Clock } from './clock.ts';
import { ChangeFeed } from './feed.ts';
import { UpdateQueue } from './updates.ts';

/** How long Telegram lets a bot answer a callback query. */
export const CALLBACK_ANSWER_WINDOW_MS = 15_000;

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

export interface InlineAnswerRecord {
  inline_query_id: string;
  results: unknown[];
  params: Record<string, unknown>;
  at_ms: number;
}

export interface EmulatorOptions {
  strictHtmlAmpersand: boolean;
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
  readonly inlineAnswers: InlineAnswerRecord[];
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
    inlineAnswers: [],
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
