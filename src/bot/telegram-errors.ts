import { TelegramError } from 'telegraf';

// Telegram answers some harmless situations with an error; these name them.

const described = (error: unknown, pattern: RegExp): boolean =>
  error instanceof TelegramError && pattern.test(error.response.description ?? '');

/** An edit that changes nothing, e.g. the same page tapped twice. */
export const isNotModified = (error: unknown): boolean => described(error, /message is not modified/i);

/** A callback query answered too late, or twice. */
export const isQueryTooOld = (error: unknown): boolean => described(error, /query is too old|query ID is invalid/i);

/** The user blocked the bot, or the bot is no longer in the chat. */
export const isUnreachableChat = (error: unknown): boolean =>
  error instanceof TelegramError && error.code === 403;
