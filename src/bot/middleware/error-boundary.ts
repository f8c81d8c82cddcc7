import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import type { Logger } from 'pino';
import { createTranslator, perLocale, resolveLocale, type Locale } from '../../i18n.ts';
import { isTransient, PortalError } from '../../portal/errors.ts';
import type { BotContext } from '../context.ts';
import { answerInline, replyOptions, replyView } from '../reply.ts';
import { isUnreachableChat } from '../../telegram/errors.ts';
import { renderInlineNoticeResult } from '../views/inline-answer.ts';
import { renderError } from '../views/notices.ts';
import { packCallback } from '../callback-data/codec.ts';
import { StoreUnavailableError } from '../../store/errors.ts';
import { deadlineSignal, HandlerDeadlineError } from '../../telegram/update-scope.ts';

/** Answers a button press with an alert unless something answered it already; true if this did. */
const alert = async (ctx: BotContext, text: string): Promise<boolean> => {
  if (ctx.answerOnce) return ctx.answerOnce(text, true);
  await ctx.answerCbQuery(text, { show_alert: true });
  return true;
};

/**
 * The one place failures become words, installed first. A button press is answered (with an alert
 * when nothing answered it yet), an inline query gets a "failed" result, a command a reply. The
 * log keeps the details, the user never a stack.
 */
export const errorBoundary = (logger: Logger, defaultLanguage: Locale): MiddlewareFn<BotContext> => {
  const translators = perLocale(createTranslator);
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const log = { err: error, updateId: ctx.update.update_id, chatId: ctx.chat?.id, userId: ctx.from?.id };
      if (isUnreachableChat(error)) {
        // Blocked by the user, or removed from the group: nothing to retry, nobody to tell.
        logger.info(log, 'chat unreachable');
        return;
      }
      // Past its deadline every Telegram call of this update is refused: nobody can be told,
      // whatever failed (the portal answering after the deadline, say).
      if (error instanceof HandlerDeadlineError || deadlineSignal()?.aborted === true) {
        logger.warn({ err: error, updateId: ctx.update.update_id }, 'update abandoned at its deadline');
        return;
      }
      if (error instanceof PortalError) logger.warn(log, 'portal call failed');
      else if (error instanceof StoreUnavailableError) logger.error({ ...log, path: error.path }, 'the store could not save');
      else logger.error(log, 'update failed');
      // Before the context middleware chose (the store could not say), the language the update carries.
      const t = ctx.t ?? translators[resolveLocale(ctx.from?.language_code, defaultLanguage)];
      const text = renderError(error, t);
      try {
        if (ctx.inlineQuery) {
          // Not cached: the next keystroke should ask the portal again.
          await answerInline(ctx, [renderInlineNoticeResult('failed', t)], { cache_time: 0, is_personal: true });
          return;
        }
        if (ctx.callbackQuery && (await alert(ctx, text))) return;
        if (!ctx.chat) return;
        // A portal that is down may be back in a moment: one tap repeats the lookup in this message.
        const retry = ctx.retry && isTransient(error) ? [[{ text: t('buttons.tryAgain'), callback_data: packCallback(ctx.retry) }]] : [];
        // An answer for one user of a group (issue 32): the failure goes where the answer would have.
        if (ctx.answerPlace !== undefined) {
          ctx.answerPlace.plain = true;
          await replyView(ctx, { text, keyboard: retry });
          return;
        }
        await ctx.reply(text, { ...replyOptions(ctx), reply_markup: { inline_keyboard: retry } });
      } catch (replyError) {
        logger.error({ err: replyError, updateId: ctx.update.update_id }, 'could not tell the user about a failure');
      }
    }
  };
};
