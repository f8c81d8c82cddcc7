import { TelegramError } from '../telegram/telegraf/core.ts';

// How Telegram refuses a notification, by what the bot does about it.

const described = (error: TelegramError, pattern: RegExp) => pattern.test(error.description ?? '');

/** The chat is gone for the bot: blocked, removed from the group, deleted. */
export const isChatGone = (error: unknown): boolean =>
  error instanceof TelegramError &&
  (error.code === 403 || (error.code === 400 && described(error, /chat not found|bot was kicked|group chat was deactivated|have no rights to send/i)));

/** The forum topic the watch was made in was deleted: the group itself still hears it. */
export const isTopicGone = (error: unknown): boolean => error instanceof TelegramError && error.code === 400 && described(error, /thread not found|topic.*(closed|deleted)/i);

/** The group became a supergroup: its new id, from Telegram's answer. */
export const migratedTo = (error: unknown): number | undefined => (error instanceof TelegramError ? error.parameters?.migrate_to_chat_id : undefined);
