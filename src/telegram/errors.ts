import { TelegramError } from './telegraf/core.ts';

// Two ways a Bot API call fails: the HTTP exchange itself (TelegramHttpError: no answer, a 5xx, a
// body that is not the Bot API's JSON), or Telegram's answer `ok: false` (Telegraf's TelegramError,
// with error_code, description and retry_after). Telegram answers some harmless situations with
// an error; the predicates below name them.

/** The call got no usable answer: the network failed, the server failed (5xx), or the body is not JSON. */
export class TelegramHttpError extends Error {
  readonly method: string;
  /** The HTTP status, when there was an answer. */
  readonly status: number | undefined;
  constructor(method: string, status: number | undefined, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TelegramHttpError';
    this.method = method;
    this.status = status;
  }
}

const described = (error: unknown, pattern: RegExp): boolean =>
  error instanceof TelegramError && pattern.test(error.response.description ?? '');

/** An edit that changes nothing, e.g. the same page tapped twice. */
export const isNotModified = (error: unknown): boolean => described(error, /message is not modified/i);

/** The message to edit is no more: the user deleted it, or it can no longer be edited. */
export const isMessageGone = (error: unknown): boolean =>
  error instanceof TelegramError && error.code === 400 && /message to edit not found|message can't be edited/i.test(error.response.description ?? '');

/** A callback query answered too late, or twice. */
export const isQueryTooOld = (error: unknown): boolean => described(error, /query is too old|query ID is invalid/i);

/** The user blocked the bot, or the bot is no longer in the chat. */
export const isUnreachableChat = (error: unknown): boolean =>
  error instanceof TelegramError && error.code === 403;

/** Where a message was to go is wrong (a chat, a forum topic, the bot's rights there), not what it holds. */
export const isMisaddressed = (error: unknown): boolean => described(error, /chat not found|thread not found|rights/i);

/** A chat Telegram does not know for this bot: a user who never started it, a wrong id. */
export const isChatNotFound = (error: unknown): boolean => described(error, /chat not found/i);
