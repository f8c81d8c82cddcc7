import type { MiddlewareFn } from 'telegraf';
import type { Logger } from 'pino';
import type { WatchStore } from '../../store/watch-store.ts';
import type { BotContext } from '../context.ts';

/**
 * A chat whose watches paused (it had blocked the bot, or the bot was out of the group) speaks
 * again: its watches resume. Any message or button press counts, every time: the sender may pause
 * a chat at any moment (and in another process), so a memory of chats found active would miss
 * one. The store answers a chat with nothing paused without writing anything.
 */
export const resumeWatches = (watches: Pick<WatchStore, 'resumeChat'>, logger: Logger): MiddlewareFn<BotContext> => async (ctx, next) => {
  const chatId = ctx.chat?.id;
  if (chatId !== undefined && (ctx.message !== undefined || ctx.callbackQuery !== undefined)) {
    if (await watches.resumeChat(chatId)) logger.info({ chatId, userId: ctx.from?.id }, 'watches resumed');
  }
  return next();
};
