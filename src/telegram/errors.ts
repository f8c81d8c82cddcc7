import { TelegramError } from 'telegraf';

// Telegram answers some harmless situations with an error; these name them.

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
