import type { MiddlewareFn } from 'telegraf';
import type { BotContext } from '../context.ts';
import { renderAccessDenied } from '../views/notices.ts';
import { replyOptions } from '../reply.ts';

export type AccessOptions = { userIds: ReadonlySet<number>; chatIds: ReadonlySet<number>; anyone: boolean };

/** A user on the list; in inline mode (no chat) only the user list counts. */
export const isAllowedUser = (options: AccessOptions, userId: number, chatId?: number): boolean =>
  options.anyone || options.userIds.has(userId) || (chatId !== undefined && options.chatIds.has(chatId));

/**
 * Lets through a user on the list, or anyone in a chat on the list. Others are told their id, on a
 * command or a button press; anything else they send is ignored, so a group is not spammed.
 * Inline queries pass on to the inline feature, which answers them with a refusal of its own.
 */
export const accessMiddleware = (options: AccessOptions): MiddlewareFn<BotContext> => async (ctx, next) => {
  const userId = ctx.from?.id;
  if (ctx.inlineQuery) return next();
  if (userId !== undefined && isAllowedUser(options, userId, ctx.chat?.id)) return next();
  if (options.anyone) return next();
  if (userId === undefined) return;
  const text = renderAccessDenied(userId, ctx.chat, ctx.t);
  if (ctx.callbackQuery) {
    await ctx.answerOnce(text, true);
    return;
  }
  const message = ctx.message;
  if (message && 'text' in message && message.text.startsWith('/')) {
    await ctx.reply(text, replyOptions(ctx));
  }
};
