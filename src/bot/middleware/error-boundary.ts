import type { MiddlewareFn } from 'telegraf';
import type { Logger } from 'pino';
import { PortalError } from '../../portal/errors.ts';
import type { BotContext } from '../context.ts';
import { replyOptions } from '../reply.ts';
import { isUnreachableChat } from '../telegram-errors.ts';
import { renderInlineNoticeResult } from '../views/inline-answer.ts';
import { renderError } from '../views/notices.ts';

/**
 * The one place failures become words. A button press is answered (with an alert when nothing
 * answered it yet); a command gets a reply. The log keeps the details, the user never a stack.
 */
export const errorBoundary = (logger: Logger): MiddlewareFn<BotContext> => async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    const log = { err: error, updateId: ctx.update.update_id, chatId: ctx.chat?.id, userId: ctx.from?.id };
    if (isUnreachableChat(error)) {
      // Blocked by the user, or removed from the group: nothing to retry, nobody to tell.
      logger.info(log, 'chat unreachable');
      return;
    }
    if (error instanceof PortalError) logger.warn(log, 'portal call failed');
    else logger.error(log, 'update failed');
    if (!ctx.t) return;
    const text = renderError(error, ctx.t);
    try {
      if (ctx.inlineQuery) {
        // Not cached: the next keystroke should ask the portal again.
        await ctx.answerInlineQuery([renderInlineNoticeResult('failed', ctx.t)], { cache_time: 0, is_personal: true });
        return;
      }
      // An unanswered button press gets an alert; one already answered gets a message instead.
      if (ctx.callbackQuery && (await ctx.answerOnce(text, true))) return;
      if (ctx.chat) await ctx.reply(text, replyOptions(ctx));
    } catch (replyError) {
      logger.error({ err: replyError, updateId: ctx.update.update_id }, 'could not tell the user about a failure');
    }
  }
};
