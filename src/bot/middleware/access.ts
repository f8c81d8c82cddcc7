import type { MiddlewareFn } from 'telegraf';
import type { BotContext } from '../context.ts';
import { renderAccessDenied } from '../views/notices.ts';
import { replyOptions } from '../reply.ts';

export type AccessOptions = { userIds: ReadonlySet<number>; chatIds: ReadonlySet<number>; anyone: boolean };

/**
 * Lets through a user on the list, or anyone in a chat on the list. Others are told their id, on a
 * command or a button press; anything else they send is ignored, so a group is not spammed.
 */
export const accessMiddleware = (options: AccessOptions): MiddlewareFn<BotContext> => async (ctx, next) => {
  const userId = ctx.from?.id;
  const chatId = ctx.chat?.id;
  const allowed =
    options.anyone ||
    (userId !== undefined && options.userIds.has(userId)) ||
    (chatId !== undefined && options.chatIds.has(chatId));
  if (allowed) return next();
  if (userId === undefined) return;
  const text = renderAccessDenied(userId, ctx.chat, ctx.t);
  if (ctx.callbackQuery) return ctx.answerOnce(text, true);
  const message = ctx.message;
  if (message && 'text' in message && message.text.startsWith('/')) {
    await ctx.reply(text, replyOptions(ctx));
  }
};
