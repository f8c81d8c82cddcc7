import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import type { Logger } from 'pino';
import { andThen } from '../../store/store.ts';
import type { WatchStore } from '../../store/watch-store.ts';
import type { BotContext } from '../context.ts';

/**
 * Keeps a chat's watches with it. A chat whose watches paused (it had blocked the bot, or the bot was out of the group) speaks
 * again: its watches resume. Any message or button press counts, every time: the sender may pause
 * a chat at any moment (and in another replica). The store answers a chat with nothing paused
 * from memory (src/store/watch-cache.ts), which a pause anywhere makes it forget.
 */
export const resumeWatches =
  (watches: Pick<WatchStore, 'resumeChat' | 'moveChat'>, logger: Logger): MiddlewareFn<BotContext> =>
  // Not async: every update passes here, and the store answers a chat with nothing paused at once.
  (ctx, next) => {
    const chatId = ctx.chat?.id;
    // A group upgraded to a supergroup gets a new id: its watches follow it.
    const message = ctx.message;
    if (chatId !== undefined && message !== undefined && 'migrate_to_chat_id' in message) {
      return andThen(watches.moveChat(chatId, message.migrate_to_chat_id), () => {
        logger.info({ chatId, migratedTo: message.migrate_to_chat_id }, 'watches moved to the supergroup');
        return next();
      });
    }
    if (chatId === undefined || (message === undefined && ctx.callbackQuery === undefined)) return next();
    return andThen(watches.resumeChat(chatId), (resumed) => {
      if (resumed) logger.info({ chatId, userId: ctx.from?.id }, 'watches resumed');
      return next();
    });
  };
